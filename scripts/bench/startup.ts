/**
 * `npm run bench -- startup`: start-up time and memory of every service and worker, run as
 * development runs them (`node --import tsx src/….ts`) and as the images run them (plain `node` on
 * the compiled dist/….js of scripts/build-node.mjs).
 *
 * Start-up is from spawn to the first 200 from /alive; RSS is read from /proc one second after that.
 * Each process is started alone against an embedded MongoDB and a leased Redis database, the two
 * forms alternating, after one uncounted warm-up of each (the first start creates indexes and seeds
 * data). The machine is shared and busy, so it prints medians.
 *
 *   STARTUP_RUNS (default 3)   counted starts of each process in each form
 *   STARTUP_ONLY=search,dip    only the processes whose name contains one of these
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TEST_SECRETS, freePort, leaseRedisDb, sleep, startTestMongo } from '@lsp/testing';

const ROOT = path.resolve(__dirname, '../..');
const BUILD_MODULE = path.join(ROOT, 'scripts/build-node.mjs');
const STACK_MODULE = path.join(ROOT, 'scripts/lib/stack.mjs');
const RUNS = Number(process.env.STARTUP_RUNS ?? 3);
const ONLY = process.env.STARTUP_ONLY?.split(',').filter(Boolean) ?? [];
const ALIVE_TIMEOUT_MS = 120_000;
const SETTLE_MS = 1000;

type Form = 'tsx' | 'compiled';
interface Sample {
  startMs: number;
  rssMb: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function rssMbOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One start of one process: spawn, poll /alive until it answers, wait, read RSS, stop. */
async function measure(args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  const port = await freePort();
  const output: string[] = [];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`${args.join(' ')} exited (${child.exitCode}): ${output.join('')}`);
      if (performance.now() - spawnedAt > ALIVE_TIMEOUT_MS)
        throw new Error(`${args.join(' ')} never answered /alive`);
      const res = await fetch(`http://127.0.0.1:${port}/alive`).catch(() => null);
      if (res?.ok) break;
      await sleep(20);
    }
    const startMs = performance.now() - spawnedAt;
    await sleep(SETTLE_MS);
    return { startMs, rssMb: rssMbOf(child.pid!) };
  } finally {
    await stopProcess(child);
  }
}

async function main() {
  const { buildNode, compiledEntryOf } = (await import(BUILD_MODULE)) as {
    buildNode(only: string[]): Promise<unknown>;
    compiledEntryOf(sourceEntry: string): string;
  };
  const { PROCESSES } = (await import(STACK_MODULE)) as { PROCESSES: { name: string; entry: string }[] };
  await buildNode(['packages', 'services']);

  const processes = PROCESSES.filter(
    (p) => p.entry.startsWith('services/') && (ONLY.length === 0 || ONLY.some((w) => p.name.includes(w))),
  );
  const mongo = await startTestMongo();
  const redis = await leaseRedisDb();
  const { NODE_OPTIONS: _inherited, ...parentEnv } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...parentEnv,
    ...TEST_SECRETS,
    SHARE_LINK_SECRET: 'bench-share-link-secret-0123456789abcdef',
    NODE_ENV: 'development',
    MONGO_URL: mongo.url,
    REDIS_URL: redis.url,
    MAIL_CATCHER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  };
  const argsFor = (entry: string, form: Form) =>
    form === 'tsx' ? ['--import', 'tsx', entry] : [compiledEntryOf(entry)];

  const rows: string[][] = [];
  try {
    for (const { name, entry } of processes) {
      const processEnv = { ...env, SERVICE_NAME: name };
      const samples: Record<Form, Sample[]> = { tsx: [], compiled: [] };
      for (const form of ['tsx', 'compiled'] as const) await measure(argsFor(entry, form), processEnv);
      for (let run = 0; run < RUNS; run++)
        for (const form of ['tsx', 'compiled'] as const)
          samples[form].push(await measure(argsFor(entry, form), processEnv));
      const startOf = (form: Form) => median(samples[form].map((s) => s.startMs));
      const rssOf = (form: Form) => median(samples[form].map((s) => s.rssMb));
      const row = [
        name,
        `${(startOf('tsx') / 1000).toFixed(2)} s`,
        `${(startOf('compiled') / 1000).toFixed(2)} s`,
        `${rssOf('tsx').toFixed(0)} MB`,
        `${rssOf('compiled').toFixed(0)} MB`,
      ];
      rows.push(row);
      console.log(`${name}: start ${row[1]} -> ${row[2]}, RSS ${row[3]} -> ${row[4]}`);
    }
  } finally {
    await redis.release();
    await mongo.stop();
  }

  const header = ['process', 'start (tsx)', 'start (compiled)', 'RSS (tsx)', 'RSS (compiled)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\nMedians of ${RUNS} starts each (spawn to /alive; RSS ${SETTLE_MS} ms later):\n`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
