/**
 * `npm run bench -- tracing-cpu`: what tracing costs per search. The whole stack (compiled, every service
 * in one process as `npm start` runs it) is started twice on its own ports, side by side: one with
 * tracing off (no OTLP endpoint), one with it on, exporting OTLP http/protobuf (the default protocol)
 * to a sink in this process that reads and discards each batch. After a warm-up, sequential anonymous
 * bridging searches go through each gateway in alternating blocks, and the CPU of every stack process
 * (from /proc, children included) per search is reported as the median block, with what the sink was
 * sent per search.
 *
 *   TRACING_CPU_COUNT (default 300)   searches sent to each stack, one after another
 *   TRACING_CPU_ROUNDS (default 5)    blocks per stack, alternating off and on
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import { SEARCH_PAYLOADS, sameOrigin } from '../lib/journeys';
import { cpuSnapshot, parentPids, withDescendants } from '../lib/process-stats';

const COUNT = Number(process.env.TRACING_CPU_COUNT ?? 300);
const ROUNDS = Number(process.env.TRACING_CPU_ROUNDS ?? 5);
const ROOT = path.resolve(__dirname, '../..');

interface RunningStack {
  label: string;
  search(): Promise<void>;
  procs: Map<string, number[]>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function startMeasuredStack(label: string, tracingEnv: Record<string, string>): Promise<RunningStack> {
  const redis = await leaseRedisDb();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lsp-tracing-cpu-'));
  const portOffset = await freeStackPortOffset(16000, 24000);
  const { startStack } = (await import(path.join(ROOT, 'scripts/lib/stack.mjs'))) as {
    startStack(opts: object): Promise<{ url: string; stop(): Promise<void> }>;
  };
  process.stdout.write(`tracing-cpu: starting the stack with tracing ${label}…\n`);
  const stack = await startStack({
    dataDir,
    portOffset,
    logs: 'file',
    env: { REDIS_URL: redis.url, MAIL_CATCHER_ENABLED: 'true', RATE_LIMIT_MAX: '100000000', ...tracingEnv },
  });
  const headers = {
    ...sameOrigin(stack.url),
    accept: 'application/json',
    'content-type': 'application/json',
  };
  const body = JSON.stringify(SEARCH_PAYLOADS.bridging);
  const search = async () => {
    const res = await fetch(`${stack.url}/api/bridging`, { method: 'POST', headers, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`a search answered ${res.status}`);
  };
  const status = JSON.parse(readFileSync(path.join(dataDir, 'stack-status.json'), 'utf8')) as {
    processes: Array<{ name: string; pid: number | null }>;
  };
  const parents = parentPids();
  const procs = new Map(
    status.processes
      .filter((p) => p.pid !== null)
      .map((p) => [p.name, withDescendants(p.pid!, parents)] as [string, number[]]),
  );
  return {
    label,
    search,
    procs,
    async stop() {
      await stack.stop();
      await redis.release();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU ms per search of the stack's processes (total) over `count` sequential searches. */
async function block(stack: RunningStack, count: number): Promise<number> {
  const before = cpuSnapshot(stack.procs);
  for (let i = 0; i < count; i++) await stack.search();
  // The last batch of spans leaves within the batch delay; its CPU belongs to these searches.
  await sleep(1_000);
  const after = cpuSnapshot(stack.procs);
  let used = 0;
  for (const [name, ms] of after) used += ms - (before.get(name) ?? 0);
  return used / count;
}

async function main() {
  let exportedBytes = 0;
  let batches = 0;
  // The collector's stand-in: reads each export and answers 200, counting what it was sent.
  const sink = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      batches += 1;
      exportedBytes += bytes;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const stacks: RunningStack[] = [];
  try {
    // Both stacks run side by side and take turns, so a machine busy with other work weighs on both alike.
    stacks.push(await startMeasuredStack('off', {}));
    stacks.push(await startMeasuredStack('on', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }));
    const [off, on] = stacks as [RunningStack, RunningStack];
    for (const stack of stacks) for (let i = 0; i < 50; i++) await stack.search();
    await sleep(5_000);
    exportedBytes = 0;
    batches = 0;
    const perRound = Math.max(1, Math.floor(COUNT / ROUNDS));
    const offRounds: number[] = [];
    const onRounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      offRounds.push(await block(off, perRound));
      onRounds.push(await block(on, perRound));
    }
    const offMs = median(offRounds);
    const onMs = median(onRounds);
    const rounds = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
    process.stdout.write(
      [
        '',
        `tracing-cpu: ${ROUNDS} rounds × ${perRound} sequential anonymous bridging searches per stack, all-in-one,`,
        'CPU ms per search of every stack process (median round):',
        `  tracing off: ${offMs.toFixed(2)} ms (rounds: ${rounds(offRounds)})`,
        `  tracing on:  ${onMs.toFixed(2)} ms (rounds: ${rounds(onRounds)})`,
        `  extra: ${(onMs - offMs).toFixed(2)} ms per search (${(((onMs - offMs) / offMs) * 100).toFixed(1)}%); ` +
          `${batches} OTLP batches, ${(exportedBytes / (perRound * ROUNDS) / 1024).toFixed(1)} KB exported per search`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const stack of stacks) await stack.stop();
    sink.close();
  }
}

main().catch((err) => {
  process.stderr.write(`tracing-cpu: failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
