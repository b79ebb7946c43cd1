import { type KafkaClient, createEventBus } from '../src/events';
import { eventBusContract } from './events-contract';
import { uniqueId } from './events-helpers';
import { type TestKafka, kafkaTargetName, startTestKafka } from './kafka-broker';

/**
 * The EventBus contract on Kafka, with each client library behind the Kafka adapter, on a real Apache
 * Kafka broker: the one at KAFKA_BROKERS when set (compose, testcontainers, `npm run kafka`), otherwise
 * one this suite starts (scripts/kafka-broker.mjs), so CI always runs it. The suite names say which.
 */

// Short group timings: a group rebalance then takes a few seconds instead of a minute.
const GROUP = { sessionTimeout: 6000, rebalanceTimeout: 6000, heartbeatInterval: 500 };

let kafka: TestKafka;

beforeAll(async () => {
  kafka = await startTestKafka();
  console.info(`EventBus contract: Kafka on ${kafka.target}`);
}, 120_000);

afterAll(async () => {
  await kafka?.stop();
});

const clients: KafkaClient[] = ['kafkajs', 'platformatic'];

describe.each(clients)(`EventBus contract: Kafka (%s client) on ${kafkaTargetName()}`, (client) => {
  // Group joins and topic creation take seconds.
  jest.setTimeout(120_000);
  const clientId = `contract-test-${uniqueId()}`;
  eventBusContract(({ retry, metrics }) => {
    const common = { kind: 'kafka' as const, brokers: kafka.brokers, clientId, retry, metrics };
    // Each library names its group timings and fetch wait its own way.
    return client === 'platformatic'
      ? createEventBus({ ...common, client, groupTimings: { ...GROUP, maxWaitTime: 100 } })
      : createEventBus({ ...common, client, consumerConfig: { ...GROUP, maxWaitTimeInMs: 100 } });
  });
});
