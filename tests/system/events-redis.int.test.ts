import { chainPeople, chainRound, startSystem, type Stack } from './event-chain';
import { eventCounts, everyEventHandled, produceEveryEvent } from './producers';

/** How many times the chain runs in a row: each round must answer right the first time. */
const ROUNDS = Number(process.env.CHAIN_ROUNDS ?? 50);

describe('events keep up with the user, on Redis Streams (the relays poll hourly)', () => {
  jest.setTimeout(600_000);
  let stack: Stack;
  let people: Awaited<ReturnType<typeof chainPeople>>;

  beforeAll(async () => {
    stack = await startSystem({ EVENT_BUS: 'redis' });
    people = await chainPeople(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('publishes every event at commit and each of its consumers handles it', async () => {
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
