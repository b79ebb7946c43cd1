import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { processAlive } from '@lsp/testing';

interface Status {
  name: string;
  state: 'running' | 'restarting' | 'given-up' | 'stopped';
  pid: number | null;
  restarts: number;
  lastExit: string | null;
}
type Record = { status?: Status[]; message?: { name: string; text: string }; stopped?: boolean };

const DRIVER = path.join(__dirname, 'fixtures', 'supervise.mjs');

/** Runs the supervisor over the given `name:crashes` processes and collects what it prints. */
function supervise(specs: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'supervisor-'));
  const driver: ChildProcessWithoutNullStreams = spawn(process.execPath, [DRIVER, dir, ...specs]);
  const records: Record[] = [];
  const waiters: Array<() => void> = [];
  readline.createInterface({ input: driver.stdout }).on('line', (line) => {
    records.push(JSON.parse(line) as Record);
    for (const wake of waiters.splice(0)) wake();
  });
  const until = (test: (r: Record[]) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (test(records) ? resolve() : waiters.push(check));
      check();
    });
  const latest = (name: string) =>
    [...records]
      .reverse()
      .find((r) => r.status)
      ?.status?.find((s) => s.name === name);
  const stop = async () => {
    driver.stdin.write('stop\n');
    await until((r) => r.some((x) => x.stopped));
    rmSync(dir, { recursive: true, force: true });
  };
  return { records, until, latest, stop };
}

describe('the supervisor of npm start', () => {
  it('restarts a crashed process, says so, and counts the restart', async () => {
    const run = supervise(['search:2']);
    // The status change and the line that says so are two records; wait for both.
    await run.until(
      (records) =>
        run.latest('search')?.state === 'running' &&
        run.latest('search')?.restarts === 2 &&
        records.some((r) => r.message?.text.startsWith('restarted (restart 2')),
    );
    const status = run.latest('search')!;
    expect(status.lastExit).toBe('code 1');
    expect(status.pid).not.toBeNull();
    expect(processAlive(status.pid!)).toBe(true);
    const messages = run.records.flatMap((r) => (r.message ? [r.message.text] : []));
    expect(messages.filter((m) => m.startsWith('exited (code 1); restarting in'))).toHaveLength(2);
    expect(messages).toContain(`restarted (restart 2, pid ${status.pid})`);
    await run.stop();
    expect(processAlive(status.pid!)).toBe(false);
  });

  it('gives up on a process that keeps crashing, with a clear message, and keeps the others running', async () => {
    const run = supervise(['broken:99', 'gateway:0']);
    await run.until(() => run.latest('broken')?.state === 'given-up');
    const message = run.records.find(
      (r) => r.message?.name === 'broken' && /not restarting/.test(r.message.text),
    );
    expect(message?.message?.text).toMatch(/^crashed 4 times in 10 s \(last: code 1\); not restarting it\./);
    const gateway = run.latest('gateway')!;
    expect(gateway.state).toBe('running');
    expect(gateway.restarts).toBe(0);
    await run.stop();
    expect(processAlive(gateway.pid!)).toBe(false);
    expect(run.latest('gateway')?.state).toBe('stopped');
  });
});
