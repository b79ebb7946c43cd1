// The interval fsync policy syncs a write within the interval, and an idle journal keeps no timer
// that would wake the server (each wake-up of an idle process costs CPU on a small machine).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../src/storage/journal';

let dir: string;
let journal: Journal | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-sync-'));
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime'] });
});

afterEach(() => {
  journal?.close();
  journal = undefined;
  jest.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Lets the thread pool's fdatasync finish and its callback run (hrtime: the fake timers leave it real). */
async function syncFinished(): Promise<void> {
  const until = process.hrtime.bigint() + 200_000_000n;
  while (process.hrtime.bigint() < until) await new Promise((r) => setImmediate(r));
}

it('sets a sync timer with the first write after a sync, and none while idle', async () => {
  journal = new Journal(dir, 'interval', 100, 0, 'generation-1');
  // The journal's first record was written: a sync is due within the interval.
  expect(jest.getTimerCount()).toBe(1);
  jest.advanceTimersByTime(100);
  await syncFinished();
  expect(jest.getTimerCount()).toBe(0);

  journal.append([{ op: 'insert', ns: 'db.c', doc: { _id: 1 } }]);
  journal.append([{ op: 'insert', ns: 'db.c', doc: { _id: 2 } }]);
  expect(jest.getTimerCount()).toBe(1);
  jest.advanceTimersByTime(100);
  await syncFinished();
  expect(jest.getTimerCount()).toBe(0);
});

it('keeps no timer at all under the always and never policies', () => {
  for (const policy of ['always', 'never'] as const) {
    const kept = new Journal(fs.mkdtempSync(path.join(dir, `${policy}-`)), policy, 100, 0, 'generation-1');
    kept.append([{ op: 'insert', ns: 'db.c', doc: { _id: 1 } }]);
    expect(jest.getTimerCount()).toBe(0);
    kept.close();
  }
});
