// Login and `me` latency through the gateway at a fixed request rate (open loop: requests start on
// schedule whether or not earlier ones finished, so queueing shows in the figures), and the
// gateway's added latency against calling identity directly. Both run in this one process on
// the embedded MongoDB (or MONGO_URL) and the machine's Redis. Prints figures; asserts nothing.
import { SESSION_COOKIE } from '@lsp/contracts';
import { identityHeaders } from '@lsp/service-kit';
import { TEST_SECRETS } from '@lsp/testing';
import { identityConfigSchema } from '../src/config';
import { startIdentityStack } from '../test/harness';

const LOGIN_RATE = Number(process.env.BENCH_LOGIN_RATE ?? 3);
const ME_RATE = Number(process.env.BENCH_ME_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Fires `call` `rate` times a second for `seconds`; returns each call's latency in ms. */
async function atFixedRate(
  rate: number,
  seconds: number,
  call: () => Promise<Response>,
): Promise<{ latencies: number[]; errors: number }> {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const start = performance.now();
  let errors = 0;
  const runs: Promise<number>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    runs.push(
      (async () => {
        const t0 = performance.now();
        const res = await call();
        await res.arrayBuffer();
        if (!res.ok) errors++;
        return performance.now() - t0;
      })(),
    );
  }
  const latencies = (await Promise.all(runs)).sort((a, b) => a - b);
  return { latencies, errors };
}

function report(label: string, rate: number, { latencies, errors }: { latencies: number[]; errors: number }) {
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  console.log(
    `${label.padEnd(28)} ${String(rate).padStart(4)} req/s × ${SECONDS}s  n=${latencies.length}  p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms${errors ? `  errors ${errors}` : ''}`,
  );
  return { p50, p99 };
}

async function main() {
  // Identity behind the real gateway, as the tests run it, but at the production password cost (login's
  // latency is mostly this hash; PASSWORD_HASH_COST=15 npm run bench -- auth to compare) and without
  // the rate limits, which would measure themselves.
  const stack = await startIdentityStack({
    env: {
      PASSWORD_HASH_COST: String(
        process.env.PASSWORD_HASH_COST ?? identityConfigSchema.shape.PASSWORD_HASH_COST.parse(undefined),
      ),
    },
    gatewayEnv: { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000' },
  });
  const { gateway } = stack;
  const identity = { url: stack.identityUrl };
  try {
    const email = 'bench@example.com';
    const password = 'bench password 123';
    const json = { 'content-type': 'application/json' };
    await fetch(`${gateway.url}/api/auth/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Bench User', email, password }),
    });
    const login = await fetch(`${gateway.url}/api/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password }),
    });
    const { user } = (await login.json()) as { user: { id: string } };
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`))!
      .split(';')[0];
    const asGateway = identityHeaders(
      { userId: user.id, email, name: 'Bench User', verified: false },
      TEST_SECRETS.INTERNAL_SECRET,
    );
    const body = JSON.stringify({ email, password });

    console.log(`identity auth benchmark (scrypt cost 2^${stack.config.PASSWORD_HASH_COST}, open loop)`);
    // Warm up connections and JIT so the first figures are not cold-start noise.
    await atFixedRate(50, 1, () => fetch(`${gateway.url}/api/auth/me`, { headers: { cookie } }));
    const meGateway = report(
      'me via gateway',
      ME_RATE,
      await atFixedRate(ME_RATE, SECONDS, () => fetch(`${gateway.url}/api/auth/me`, { headers: { cookie } })),
    );
    const meDirect = report(
      'me direct to identity',
      ME_RATE,
      await atFixedRate(ME_RATE, SECONDS, () => fetch(`${identity.url}/api/auth/me`, { headers: asGateway })),
    );
    const loginGateway = report(
      'login via gateway',
      LOGIN_RATE,
      await atFixedRate(LOGIN_RATE, SECONDS, () =>
        fetch(`${gateway.url}/api/login`, { method: 'POST', headers: json, body }),
      ),
    );
    const loginDirect = report(
      'login direct to identity',
      LOGIN_RATE,
      await atFixedRate(LOGIN_RATE, SECONDS, () =>
        fetch(`${identity.url}/api/login`, { method: 'POST', headers: json, body }),
      ),
    );
    console.log(
      `gateway added latency: me p50 +${(meGateway.p50 - meDirect.p50).toFixed(2)} ms, p99 +${(meGateway.p99 - meDirect.p99).toFixed(2)} ms; ` +
        `login p50 +${(loginGateway.p50 - loginDirect.p50).toFixed(2)} ms, p99 +${(loginGateway.p99 - loginDirect.p99).toFixed(2)} ms`,
    );
  } finally {
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
