import { uniqueId } from './events-helpers';
import { createEventBus } from '../src/events';
import { eventBusContract } from './events-contract';

const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((broker) => broker.trim())
  .filter(Boolean);

if (brokers.length === 0) {
  console.info(
    'EventBus contract: Kafka skipped because KAFKA_BROKERS is not set (e.g. KAFKA_BROKERS=127.0.0.1:9092)',
  );
  describe.skip('EventBus contract: Kafka (skipped: KAFKA_BROKERS is not set)', () => {
    it('needs a Kafka broker', () => undefined);
  });
} else {
  describe(`EventBus contract: Kafka at ${brokers.join(',')}`, () => {
    // Group joins and topic creation take seconds on a real broker.
    jest.setTimeout(120_000);
    const clientId = `contract-test-${uniqueId()}`;
    eventBusContract(({ retry, metrics }) =>
      createEventBus({ kind: 'kafka', brokers, clientId, retry, metrics }),
    );
  });
}
