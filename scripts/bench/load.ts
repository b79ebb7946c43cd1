/**
 * `npm run bench -- load`: what two cores carry, through the gateway, on the stack `npm start` runs.
 *
 * For each kind of request it steps the arrival rate up (autocannon, fixed overall rate) until p99
 * passes 100 ms or any request fails: the last rate that held is the knee. Then it runs at half the
 * knee and reports p50/p99 there, and the CPU milliseconds each process spent per request (from
 * /proc, with the stack's idle CPU over the same time taken off), which means something even on a
 * machine that is busy with other work, where wall time does not.
 *
 * The uncached PDF is measured apart: every request asks for a DIP whose PDF was never rendered, and
 * one render takes longer than 100 ms on its own, so its rates step from 1 req/s and its limit is a
 * p99 of 2 s (the renders queue behind each other on the worker's Chromium).
 *
 *   LOAD_STEP_SECONDS (default 6)   how long each rate is held
 *   LOAD_ONLY=search,me             only the scenarios whose name contains one of these
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CookieClient, freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import autocannon from 'autocannon';
import { LOAN_TYPES, SEARCH_PAYLOADS, type SignedInUser, sameOrigin, signUpVerified } from '../lib/journeys';
import { cpuSnapshot, parentPids, rssMbOf, withDescendants } from '../lib/process-stats';

const STEP_SECONDS = Number(process.env.LOAD_STEP_SECONDS ?? 6);
const RATES = [10, 25, 50, 100, 150, 200, 300, 400, 600, 800];
const P99_LIMIT_MS = 100;
const ONLY = process.env.LOAD_ONLY?.split(',').filter(Boolean);
const ROOT = path.resolve(__dirname, '../..');
const STACK_MODULE = path.join(ROOT, 'scripts/lib/stack.mjs');

interface Stack {
  url: string;
  stop(): Promise<void>;
  supervisor: { status(): Array<{ name: string; pid: number | null }> };
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Sent with the signed-in user's session cookie. */
  signedIn?: boolean;
  /** Each request takes the next of these paths instead of `path` (a PDF never rendered before). */
  freshPaths?: string[];
  /** The arrival rates to step through, and the p99 a rate must hold (defaults: RATES, 100 ms). */
  rates?: number[];
  p99LimitMs?: number;
}

/** The uncached PDF's steps: a warm render alone takes about 250 ms on this machine. */
const RENDER_RATES = [1, 2, 4, 6, 8, 12, 16];
const RENDER_P99_LIMIT_MS = 2000;

interface StepResult {
  rate: number;
  sent: number;
  failed: number;
  p50: number;
  p99: number;
}

/** Each stack process by name, with the pids of it and its children (a worker's Chromium included). */
function processTrees(stack: Stack): Map<string, number[]> {
  const parents = parentPids();
  return new Map(
    stack.supervisor
      .status()
      .filter((p): p is { name: string; pid: number } => p.pid !== null)
      .map((p) => [p.name, withDescendants(p.pid, parents)]),
  );
}

const rssOfTree = (pids: number[]) => Math.round(pids.reduce((sum, pid) => sum + rssMbOf(pid), 0));

async function fire(stack: Stack, scenario: Scenario, rate: number, seconds: number, cookie?: string) {
  const headers: Record<string, string> = { ...sameOrigin(stack.url), accept: 'application/json' };
  if (scenario.body !== undefined) headers['content-type'] = 'application/json';
  if (scenario.signedIn && cookie) headers.cookie = cookie;
  const fresh = scenario.freshPaths;
  const result = await autocannon({
    url: `${stack.url}${scenario.path}`,
    method: scenario.method,
    headers,
    body: scenario.body === undefined ? undefined : JSON.stringify(scenario.body),
    ...(fresh
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const next = fresh.shift();
                if (!next) throw new Error('load: the uncached PDF scenario ran out of fresh DIPs');
                return { ...request, path: next };
              },
            },
          ],
        }
      : {}),
    overallRate: rate,
    connections: Math.min(100, Math.max(4, Math.ceil(rate / 10))),
    duration: seconds,
    timeout: 5,
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  return {
    rate,
    sent: result.requests.total,
    failed,
    p50: result.latency.p50,
    p99: result.latency.p99,
  } satisfies StepResult;
}

async function main() {
  const redis = await leaseRedisDb();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lsp-load-'));
  const { startStack } = (await import(STACK_MODULE)) as {
    startStack(opts: object): Promise<Stack>;
  };
  const stack = await startStack({
    dataDir,
    portOffset: await freeStackPortOffset(16000, 24000),
    logs: 'file',
    env: {
      REDIS_URL: redis.url,
      MAIL_CATCHER_ENABLED: 'true',
      // One client address sends everything: the per-address limits would measure themselves.
      RATE_LIMIT_MAX: '100000000',
      RATE_LIMIT_AUTH_MAX: '100000000',
      LOGIN_LOCK_AFTER_PER_IP: '100000000',
    },
  });
  try {
    const user: SignedInUser = await signUpVerified(stack.url);
    const cookie = sessionCookie(user.client);
    const dipIds = await prepareDips(user, ONLY && !ONLY.some((o) => 'PDF (uncached)'.includes(o)) ? 1 : 420);
    const dipId = dipIds[0] ?? null;
    const scenarios: Scenario[] = (
      [
        ...LOAN_TYPES.map((t) => ({
          name: `search ${t}`,
          method: 'POST' as const,
          path: `/api/${t}`,
          body: SEARCH_PAYLOADS[t],
        })),
        {
          name: 'sign-in',
          method: 'POST',
          path: '/api/login',
          body: { email: user.email, password: user.password },
        },
        { name: 'me', method: 'GET', path: '/api/auth/me', signedIn: true },
        {
          name: 'dashboard searches',
          method: 'GET',
          path: `/api/user-searches/${user.userId}`,
          signedIn: true,
        },
        ...(dipId
          ? [
              {
                name: 'dashboard DIPs',
                method: 'GET' as const,
                path: `/api/online-dip/user/${user.userId}`,
                signedIn: true,
              },
              { name: 'dashboard shared', method: 'GET' as const, path: '/api/shared', signedIn: true },
              { name: 'DIP view', method: 'GET' as const, path: `/api/online-dip/${dipId}`, signedIn: true },
              {
                name: 'PDF (cached)',
                method: 'GET' as const,
                path: `/api/online-dip/pdf/${dipId}`,
                signedIn: true,
              },
              ...(dipIds.length > 1
                ? [
                    {
                      name: 'PDF (uncached)',
                      method: 'GET' as const,
                      path: `/api/online-dip/pdf/${dipIds[1]}`,
                      freshPaths: dipIds.slice(1).map((id) => `/api/online-dip/pdf/${id}`),
                      signedIn: true,
                      rates: RENDER_RATES,
                      p99LimitMs: RENDER_P99_LIMIT_MS,
                    },
                  ]
                : []),
            ]
          : []),
      ] satisfies Scenario[]
    ).filter((s: Scenario) => !ONLY || ONLY.some((o) => s.name.includes(o)));

    // Idle first: what the stack burns doing nothing, per process, taken off every figure below.
    const idleSeconds = 5;
    // Let the events of the preparation (sign-up, the DIPs) settle first.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idleBefore = cpuSnapshot(processTrees(stack));
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idleAfter = cpuSnapshot(processTrees(stack));
    const idlePerSecond = new Map(
      [...idleAfter].map(([name, ms]) => [name, (ms - (idleBefore.get(name) ?? ms)) / idleSeconds]),
    );
    const idleTotal = [...idlePerSecond.values()].reduce((a, b) => a + b, 0);
    const rss = [...processTrees(stack)].map(([name, pids]) => [name, rssOfTree(pids)] as const);
    process.stdout.write(
      `load: idle ${idleTotal.toFixed(1)} ms CPU per second across ${idlePerSecond.size} processes; ` +
        `RSS ${rss.reduce((a, [, mb]) => a + mb, 0)} MB (${rss.map(([n, mb]) => `${n} ${mb}`).join(', ')})\n`,
    );
    if (!dipId) process.stdout.write('load: no DIP could be created, so the DIP scenarios are left out\n');

    process.stdout.write(
      `\n${'scenario'.padEnd(20)} ${'knee req/s'.padStart(10)}  ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  CPU ms per request (at half the knee)\n`,
    );
    for (const scenario of scenarios) {
      const rates = scenario.rates ?? RATES;
      await fire(stack, scenario, Math.min(5, rates[0]!), 2, cookie); // warm the path
      let knee: StepResult | null = null;
      for (const rate of rates) {
        const step = await fire(stack, scenario, rate, STEP_SECONDS, cookie);
        if (step.failed > 0 || step.p99 > (scenario.p99LimitMs ?? P99_LIMIT_MS)) break;
        knee = step;
      }
      if (!knee) {
        process.stdout.write(`${scenario.name.padEnd(20)} ${`<${rates[0]}`.padStart(10)}\n`);
        continue;
      }
      const half = Math.max(Math.min(5, rates[0]!), Math.round(knee.rate / 2));
      const before = cpuSnapshot(processTrees(stack));
      const started = Date.now();
      const atHalf = await fire(stack, scenario, half, STEP_SECONDS, cookie);
      const seconds = (Date.now() - started) / 1000;
      const after = cpuSnapshot(processTrees(stack));
      const perRequest = [...after]
        .map(([name, ms]) => {
          const used = ms - (before.get(name) ?? ms) - (idlePerSecond.get(name) ?? 0) * seconds;
          return [name, Math.max(0, used) / Math.max(1, atHalf.sent)] as const;
        })
        .filter(([, ms]) => ms >= 0.05)
        .sort((a, b) => b[1] - a[1]);
      const total = perRequest.reduce((a, [, ms]) => a + ms, 0);
      process.stdout.write(
        `${scenario.name.padEnd(20)} ${String(knee.rate).padStart(10)}  ${atHalf.p50.toFixed(1).padStart(7)} ${atHalf.p99
          .toFixed(1)
          .padStart(
            7,
          )}  ${total.toFixed(2)} = ${perRequest.map(([n, ms]) => `${n} ${ms.toFixed(2)}`).join(', ')}\n`,
      );
    }
  } finally {
    await stack.stop();
    await redis.release();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function sessionCookie(client: CookieClient): string {
  const sid = client.cookie('sid');
  if (!sid) throw new Error('the load user has no session cookie');
  return `sid=${sid}`;
}

/**
 * Saves a search and makes `count` DIPs of its first offer (each its own PDF to render), as many as
 * the DIP service will make; none when it cannot.
 */
async function prepareDips(user: SignedInUser, count: number): Promise<string[]> {
  const headers = sameOrigin(user.client.baseUrl);
  const searchData = SEARCH_PAYLOADS.bridging;
  const run = await user.client.post('/api/bridging', searchData, { headers });
  const saved = await user.client.post(
    '/api/search',
    { userId: user.userId, loanType: 'bridging', searchData, apiResponse: run.json() },
    { headers },
  );
  const searchId = saved.json()?.search?.id as string | undefined;
  if (!searchId) return [];
  const create = () =>
    user.client.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 }, { headers });
  const ids: string[] = [];
  const first = await create();
  if (first.status < 300) ids.push(first.json().dipId as string);
  while (ids.length > 0 && ids.length < count) {
    const res = await create();
    if (res.status >= 300) throw new Error(`load: creating DIP ${ids.length + 1} answered ${res.status}`);
    ids.push(res.json().dipId as string);
  }
  return ids;
}

main().catch((err) => {
  process.stderr.write(`load: failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
