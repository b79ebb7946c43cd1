/**
 * The suite each event bus runs (tests/system/events-*.int.test.ts): the whole system, the relays
 * polling hourly.
 */
import { type SignedInUser, signUpVerified } from '../../scripts/lib/journeys';
import { type Stack, chainPeople, chainRound, startSystem } from './event-chain';
import { eventCounts, everyEventHandled, produceEveryEvent } from './producers';

/** How many times the chain runs in a row: each round must answer right the first time. */
const ROUNDS = Number(process.env.CHAIN_ROUNDS ?? 50);

/**
 * Rounds each owner runs: every round emails one invitation, and a broker sharing ten DIPs in a few
 * minutes stays within the hour's allowance of invitation emails per user (sharing's
 * INVITATIONS_PER_HOUR), which refuses one person sharing fifty.
 */
const ROUNDS_PER_OWNER = 10;

/** The event bus a suite runs the system on: the stack's environment for it, and how to stop it. */
export interface BusUnderTest {
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The whole system on one event bus, the relays polling hourly: every event published at commit and
 * handled by each of its consumers, then the user's chain, ROUNDS times in a row.
 */
export function describeEventsKeepUp(busName: string, startBus: () => Promise<BusUnderTest>): void {
  describe(`events keep up with the user, on ${busName} (the relays poll hourly)`, () => {
    jest.setTimeout(600_000);
    let bus: BusUnderTest | undefined;
    let stack: Stack;
    let people: Awaited<ReturnType<typeof chainPeople>>;

    beforeAll(async () => {
      bus = await startBus();
      stack = await startSystem(bus.env);
      people = await chainPeople(stack);
    });
    afterAll(async () => {
      await stack?.stop();
      await bus?.stop();
    });

    it('registers, verifies by email, searches, makes a DIP, shares it…: every event published at commit and handled by each of its consumers', async () => {
      const before = await eventCounts(stack);
      await produceEveryEvent(stack, people.owner);
      await everyEventHandled(stack, before);
    });

    it(`answers every step of the chain right the first time, ${ROUNDS} rounds in a row`, async () => {
      const failures: string[] = [];
      const owners: SignedInUser[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const nth = Math.floor((round - 1) / ROUNDS_PER_OWNER);
        owners[nth] ??= await signUpVerified(stack.url, `Chain Owner ${nth + 1}`);
        const failure = await chainRound(stack, { ...people, owner: owners[nth] }, round);
        if (failure) failures.push(`round ${round}: ${failure}`);
      }
      expect(failures).toEqual([]);
    });
  });
}
