// Teams deploy alone: one domain at its previous release (a worktree of the commit its release in
// packages/contracts/released/<domain>.json names) beside every other domain at this tree, through the
// user's chain (save a search → DIP → share by email → the recipient views it → links → apply) and a
// lender panel change, on Redis Streams and on a real Kafka broker.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startTestKafka } from '../../packages/service-kit/test/kafka-broker';
import { chainPeople, chainRound } from './event-chain';
import { type MixedStack, releaseCommitOf, startMixedSystem, worktreeAt } from './mixed-versions';
import { panelChangeRound } from './panel-change';

const ROOT = path.resolve(__dirname, '../..');
/** The domains other teams' code must keep working beside: the producers and consumers of the chain. */
const DOMAINS = ['dip', 'sharing'];
const BUSES: Array<{
  name: string;
  start(): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
}> = [
  { name: 'Redis Streams', start: async () => ({ env: {}, stop: async () => {} }) },
  {
    name: 'Kafka',
    start: async () => {
      const kafka = await startTestKafka();
      return {
        env: { EVENT_BUS: 'kafka', KAFKA_BROKERS: kafka.brokers.join(',') },
        stop: () => kafka.stop(),
      };
    },
  },
];

describe.each(DOMAINS.flatMap((domain) => BUSES.map((bus) => ({ domain, bus }))))(
  '$domain at its previous release, the rest at this tree, on $bus.name',
  ({ domain, bus }) => {
    jest.setTimeout(600_000);
    const commit = releaseCommitOf(domain);
    let previous: ReturnType<typeof worktreeAt> | undefined;
    let running: Awaited<ReturnType<typeof bus.start>> | undefined;
    let stack: MixedStack | undefined;

    beforeAll(async () => {
      previous = worktreeAt(commit);
      running = await bus.start();
      stack = await startMixedSystem({ domain, root: previous.root }, running.env);
    });
    afterAll(async () => {
      await stack?.stop();
      await running?.stop();
      previous?.remove();
    });

    it(`runs ${domain} and its workers from the release commit, the other processes from this tree`, () => {
      const head = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: previous!.root,
        encoding: 'utf8',
      }).trim();
      expect(head).toBe(commit);
      for (const [name, root] of Object.entries(stack!.rootOf)) {
        const ofDomain = name === domain || stack!.partOf[name] === domain;
        expect([name, root]).toEqual([name, ofDomain ? previous!.root : ROOT]);
      }
      expect(stack!.rootOf[domain]).toBe(previous!.root);
    });

    it('answers every step of save → DIP → share → view → apply right the first time', async () => {
      const people = await chainPeople(stack!);
      expect(await chainRound(stack!, people, 1)).toBeNull();
    });

    it("re-prices the owner's saved search and marks their live DIP when a cheaper panel is activated", async () => {
      const { owner } = await chainPeople(stack!);
      expect(await panelChangeRound(stack!, owner)).toBeNull();
    });
  },
);
