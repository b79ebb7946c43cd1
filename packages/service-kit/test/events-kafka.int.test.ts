import { type KafkaClient, createEventBus } from '../src/events';
import { eventBusContract } from './events-contract';
import { uniqueId } from './events-helpers';
import { type KafkaMockCluster, kcatInstalled, startKafkaMockCluster } from './kafka-mock-cluster';

/**
 * The EventBus contract on Kafka, with each client library behind the Kafka adapter. On a real
 * broker when KAFKA_BROKERS is set (compose, testcontainers); otherwise on librdkafka's mock cluster
 * (kcat), so CI always runs it. The suite names say which.
 */
const realBrokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((broker) => broker.trim())
  .filter(Boolean);
const onRealBroker = realBrokers.length > 0;
const target = onRealBroker
  ? `real broker at ${realBrokers.join(',')}`
  : 'librdkafka mock cluster (kcat; set KAFKA_BROKERS for a real broker)';

// Short group timings: a group rebalance then takes a few seconds instead of a minute.
const GROUP = { sessionTimeout: 6000, rebalanceTimeout: 6000, heartbeatInterval: 500 };

let brokers = realBrokers;
let mock: KafkaMockCluster | undefined;

beforeAll(async () => {
  if (onRealBroker) return;
  if (!kcatInstalled()) {
    throw new Error(
      'kcat is not installed: apt-get install -y kcat (npm test installs it), or set KAFKA_BROKERS',
    );
  }
  mock = await startKafkaMockCluster();
  brokers = mock.brokers;
  console.info(`EventBus contract: Kafka on the librdkafka mock cluster at ${brokers.join(',')}`);
});

afterAll(async () => {
  await mock?.stop();
});

const clients: KafkaClient[] = ['kafkajs', 'platformatic'];

// @platformatic/kafka speaks only Kafka >= 3.5 (ApiVersions v3, no fallback); Debian's librdkafka 2.0
// mock answers up to v2, so that client's contract runs on a real broker only.
if (!onRealBroker) {
  describe.skip('EventBus contract: Kafka (platformatic client) needs a real broker (KAFKA_BROKERS)', () => {
    it('the librdkafka mock cluster does not speak ApiVersions v3', () => undefined);
  });
}

describe.each(onRealBroker ? clients : clients.filter((client) => client !== 'platformatic'))(
  `EventBus contract: Kafka (%s client) on ${target}`,
  (client) => {
    // Group joins and topic creation take seconds.
    jest.setTimeout(120_000);
    const clientId = `contract-test-${uniqueId()}`;
    eventBusContract(({ retry, metrics }) =>
      client === 'platformatic'
        ? createEventBus({
            kind: 'kafka',
            client,
            brokers,
            clientId,
            retry,
            metrics,
            groupTimings: { ...GROUP, maxWaitTime: 100 },
          })
        : createEventBus({
            kind: 'kafka',
            client,
            brokers,
            clientId,
            retry,
            metrics,
            consumerConfig: { ...GROUP, maxWaitTimeInMs: 100 },
          }),
    );
  },
);
