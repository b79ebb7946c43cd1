/**
 * `npm run bench -- search-cpu`: what one anonymous bridging search costs the whole single-machine
 * stack, measured the way the CPU/memory issue measured it on `npm start`.
 *
 * The stack runs in a child process of its own (as `npm start` runs it: console logs relayed and
 * formatted by that process, here into a file), so the relay's CPU is counted like any service's.
 * Then, with nothing else sent to it:
 *   - idle: CPU per second of every process (and its children) over SEARCH_CPU_IDLE_SECONDS;
 *   - RSS of every process (and its children);
 *   - SEARCH_CPU_COUNT sequential anonymous bridging searches through the gateway, CPU per search of
 *     every process from /proc/<pid>/stat before and after (idle CPU over the same time taken off),
 *     and p50/p99 wall time (which, on a machine busy with other work, means less than the CPU).
 *
 *   SEARCH_CPU_COUNT (default 400)         searches sent, one after another
 *   SEARCH_CPU_IDLE_SECONDS (default 20)   how long idle CPU is measured
 *   SEARCH_CPU_NODE_ARGS                    node flags for every process of the stack, e.g.
 *                                           "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it
 *                                           (summarise with scripts/lib/cpuprofile-summary.mjs)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import { SEARCH_PAYLOADS, sameOrigin } from '../lib/journeys';
import { cpuSnapshot, parentPids, rssMbOf, withDescendants } from '../lib/process-stats';

const COUNT = Number(process.env.SEARCH_CPU_COUNT ?? 400);
const IDLE_SECONDS = Number(process.env.SEARCH_CPU_IDLE_SECONDS ?? 20);
const ROOT = path.resolve(__dirname, '../..');
const RELAY = 'relay (start)';

interface StackStatus {
  url: string;
  processes: Array<{ name: string; pid: number | null }>;
}

/** Each stack process by name (the relay included), with the pids of it and its children. */
function stackProcesses(relayPid: number, status: StackStatus): Map<string, number[]> {
  const parents = parentPids();
  const result = new Map<string, number[]>();
  for (const p of status.processes) {
    if (p.pid === null) continue;
    result.set(p.name, withDescendants(p.pid, parents));
  }
  result.set(RELAY, [relayPid]);
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const redis = await leaseRedisDb();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lsp-search-cpu-'));
  const portOffset = await freeStackPortOffset(16000, 24000);
  const readyFile = path.join(dataDir, 'ready');
  // The stack's own process: what `npm start` does once the frontends are built and Redis answers.
  const runner = `
    import { writeFileSync } from 'node:fs';
    import { startStack } from ${JSON.stringify(path.join(ROOT, 'scripts/lib/stack.mjs'))};
    const stack = await startStack(JSON.parse(process.env.SEARCH_CPU_STACK));
    writeFileSync(${JSON.stringify(readyFile)}, stack.url);
    process.on('SIGTERM', async () => { await stack.stop(); process.exit(0); });
  `;
  const stackOptions = {
    dataDir,
    portOffset,
    logs: 'console',
    env: {
      REDIS_URL: redis.url,
      MAIL_CATCHER_ENABLED: 'true',
      // Every search comes from one address: the per-address limit would measure itself.
      RATE_LIMIT_MAX: '100000000',
    },
    nodeArgs: process.env.SEARCH_CPU_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
  };
  const logFd = openSync(path.join(dataDir, 'console.log'), 'a');
  const stackProcess = spawn(process.execPath, ['--input-type=module', '-e', runner], {
    cwd: ROOT,
    env: { ...process.env, SEARCH_CPU_STACK: JSON.stringify(stackOptions) },
    stdio: ['ignore', logFd, logFd],
  });
  const exited = new Promise((resolve) => stackProcess.once('exit', resolve));
  try {
    const started = Date.now();
    while (!existsSync(readyFile)) {
      if (stackProcess.exitCode !== null)
        throw new Error(`the stack failed to start: see ${dataDir}/console.log`);
      if (Date.now() - started > 300_000) throw new Error('the stack did not start in 5 minutes');
      await sleep(500);
    }
    const url = readFileSync(readyFile, 'utf8');
    const status = () =>
      JSON.parse(readFileSync(path.join(dataDir, 'stack-status.json'), 'utf8')) as StackStatus;
    const headers = { ...sameOrigin(url), accept: 'application/json', 'content-type': 'application/json' };
    const body = JSON.stringify(SEARCH_PAYLOADS.bridging);
    const search = async () => {
      const res = await fetch(`${url}/api/bridging`, { method: 'POST', headers, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`a search answered ${res.status}`);
    };
    // Warm every path (JIT, connections, caches), then let start-up work settle.
    for (let i = 0; i < 50; i++) await search();
    await sleep(10_000);

    const procs = stackProcesses(stackProcess.pid!, status());
    const idleBefore = cpuSnapshot(procs);
    await sleep(IDLE_SECONDS * 1000);
    const idleAfter = cpuSnapshot(procs);
    const idlePerSecond = new Map(
      [...idleAfter].map(([name, ms]) => [name, (ms - (idleBefore.get(name) ?? 0)) / IDLE_SECONDS]),
    );
    const rss = new Map(
      [...procs].map(([name, pids]) => [name, pids.reduce((a, pid) => a + rssMbOf(pid), 0)]),
    );

    const latencies: number[] = [];
    const before = cpuSnapshot(procs);
    const loadStarted = performance.now();
    for (let i = 0; i < COUNT; i++) {
      const t0 = performance.now();
      await search();
      latencies.push(performance.now() - t0);
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const after = cpuSnapshot(procs);
    const perSearch = new Map(
      [...after].map(([name, ms]) => {
        const used = ms - (before.get(name) ?? 0) - (idlePerSecond.get(name) ?? 0) * loadSeconds;
        return [name, used / COUNT];
      }),
    );
    latencies.sort((a, b) => a - b);

    const names = [...procs.keys()].sort((a, b) => (perSearch.get(b) ?? 0) - (perSearch.get(a) ?? 0));
    const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const pidCount = [...procs.values()].reduce((a, pids) => a + pids.length, 0);
    const row = (cells: string[]) =>
      `${cells[0].padEnd(16)} ${cells[1].padStart(14)} ${cells[2].padStart(12)} ${cells[3].padStart(8)}\n`;
    let out = `\nsearch-cpu: ${COUNT} sequential anonymous bridging searches through the gateway\n\n`;
    out += row(['process', 'CPU ms/search', 'idle ms/s', 'RSS MB']);
    for (const name of names)
      out += row([
        name,
        (perSearch.get(name) ?? 0).toFixed(2),
        (idlePerSecond.get(name) ?? 0).toFixed(1),
        (rss.get(name) ?? 0).toFixed(0),
      ]);
    out += row([
      `total (${pidCount} pids)`,
      total(perSearch).toFixed(2),
      total(idlePerSecond).toFixed(1),
      total(rss).toFixed(0),
    ]);
    out +=
      `\ngateway hop ${(perSearch.get('gateway') ?? 0).toFixed(2)} ms CPU per search; ` +
      `${COUNT} searches in ${loadSeconds.toFixed(1)} s, ` +
      `wall p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms\n`;
    process.stdout.write(out);
  } finally {
    stackProcess.kill('SIGTERM');
    await exited;
    await redis.release();
    if (!process.env.SEARCH_CPU_KEEP) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`search-cpu: failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
