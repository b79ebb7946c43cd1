// What the benchmarks share: the server started in a child process as `npm start` runs it, and
// operations timed one at a time.
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const BIN = path.join(__dirname, '../bin/embedded-mongo.ts');

export interface Child {
  proc: ChildProcess;
  uri: string;
  /** The server's own start-up time, as it reports it (loading the data folder). */
  readyMs: number;
  /** From spawning the process to its ready line, tsx's compiling included. */
  spawnToReadyMs: number;
}

/**
 * Starts a one-member replica set on a free port over `dbPath`. `compactBytes`, when given, is the
 * journal size at which the server compacts it into a snapshot (else the server's default).
 */
export function startServer(dbPath: string, options: { compactBytes?: number } = {}): Promise<Child> {
  const started = process.hrtime.bigint();
  const args = ['--import', 'tsx', BIN, '--port', '0', '--dbpath', dbPath, '--replset', 'rs0'];
  if (options.compactBytes !== undefined) args.push('--compactBytes', String(options.compactBytes));
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, {
      cwd: path.join(__dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+) .*ready in (\d+) ms/.exec(out);
      if (m)
        resolve({
          proc,
          uri: m[1],
          readyMs: Number(m[2]),
          spawnToReadyMs: Number(process.hrtime.bigint() - started) / 1e6,
        });
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out.slice(-2000)}`)));
  });
}

export function stopServer(child: Child): Promise<void> {
  return new Promise((resolve) => {
    child.proc.removeAllListeners('exit');
    child.proc.once('exit', () => resolve());
    child.proc.kill('SIGTERM');
  });
}

/** Runs `fn` n times, one after another; each call's time in ms, sorted ascending. */
export async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

/** The p-th percentile of times sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
