// Teams deploy alone: the dip domain at its previous release (a worktree of the commit its release in
// packages/contracts/released/dip.json names) beside every other domain at this tree, through the
// user's chain: save a search → DIP → share by email → the recipient views it → links → apply.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chainPeople, chainRound } from './event-chain';
import { type MixedStack, releaseCommitOf, startMixedSystem, worktreeAt } from './mixed-versions';

const ROOT = path.resolve(__dirname, '../..');

describe('dip at its previous release, the rest at this tree', () => {
  jest.setTimeout(600_000);
  const commit = releaseCommitOf('dip');
  let previous: ReturnType<typeof worktreeAt> | undefined;
  let stack: MixedStack | undefined;

  beforeAll(async () => {
    previous = worktreeAt(commit);
    stack = await startMixedSystem({ domain: 'dip', root: previous.root });
  });
  afterAll(async () => {
    await stack?.stop();
    previous?.remove();
  });

  it('runs dip and its worker from the release commit, the other processes from this tree', () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: previous!.root, encoding: 'utf8' }).trim();
    expect(head).toBe(commit);
    expect([stack!.rootOf.dip, stack!.rootOf['pdf-worker']]).toEqual([previous!.root, previous!.root]);
    for (const name of ['identity', 'search', 'sharing', 'notifications', 'gateway']) {
      expect([name, stack!.rootOf[name]]).toEqual([name, ROOT]);
    }
  });

  it('answers every step of save → DIP → share → view → apply right the first time', async () => {
    const people = await chainPeople(stack!);
    expect(await chainRound(stack!, people, 1)).toBeNull();
  });
});
