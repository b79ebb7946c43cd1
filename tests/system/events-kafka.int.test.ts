import {
  type TestKafka,
  kafkaTargetName,
  startTestKafka,
} from '../../packages/service-kit/test/kafka-broker';
import { chainPeople, chainRound, startSystem, type Stack } from './event-chain';
import { eventCounts, everyEventHandled, produceEveryEvent } from './producers';

/** How many times the chain runs in a row: each round must answer right the first time. */
const ROUNDS = Number(process.env.CHAIN_ROUNDS ?? 50);

/**
 * The same as on Redis Streams, with every event carried by Kafka: the whole system on EVENT_BUS=kafka
 * (KAFKA_CLIENT as configured), on a real Apache Kafka broker.
 */
describe(`events keep up with the user, on Kafka (${kafkaTargetName()}; the relays poll hourly)`, () => {
  jest.setTimeout(600_000);
  let kafka: TestKafka;
  let stack: Stack;
  let people: Awaited<ReturnType<typeof chainPeople>>;

  beforeAll(async () => {
    kafka = await startTestKafka();
    console.info(`system test on Kafka: ${kafka.target}`);
    stack = await startSystem({ EVENT_BUS: 'kafka', KAFKA_BROKERS: kafka.brokers.join(',') });
    people = await chainPeople(stack);
  });
  afterAll(async () => {
    await stack?.stop();
    await kafka?.stop();
  });

  it('registers, verifies by email, searches, makes a DIP, shares it…: every event published at commit and handled by each of its consumers', async () => {
    const before = await eventCounts(stack);
    await produceEveryEvent(stack, people.owner);
    await everyEventHandled(stack, before);
  });

  it(`answers every step of the chain right the first time, ${ROUNDS} rounds in a row`, async () => {
    const failures: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const failure = await chainRound(stack, people, round);
      if (failure) failures.push(`round ${round}: ${failure}`);
    }
    expect(failures).toEqual([]);
  });
});
