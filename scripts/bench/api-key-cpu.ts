/**
 * `npm run bench -- api-key-cpu`: what authenticating with an API key costs the gateway beyond a
 * session cookie, per call.
 *
 * The real gateway (buildGateway) in this process in front of an upstream that answers at once, on a
 * leased Redis db. The same GET /api/online-dip/user/{id} (a `dips:read` route) is sent one call after
 * another, in alternating blocks, with a session cookie and with `Authorization: Bearer <key>`; the
 * process's CPU (user + system, process.cpuUsage) per call is measured for each. The client's work is
 * the same in both, so the difference is the key's: the key's SHA-256 and constant-time compare, the
 * declared route's scope, the per-key counter and the last-used write, against the session's
 * signature check and sliding expiry.
 *
 *   API_KEY_CPU_CALLS (default 2000)   calls per kind in each round
 *   API_KEY_CPU_ROUNDS (default 5)     rounds, alternating session and key; the median round is reported
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { startTestGateway } from '@lsp/gateway/testing';
import { connectedRedis, leaseRedisDb, signedInClient } from '@lsp/testing';
import { systemClock } from '@lsp/service-kit';
import { ApiKeyStore } from '../../services/identity/src/data/api-keys';

const CALLS = Number(process.env.API_KEY_CPU_CALLS ?? 2000);
const ROUNDS = Number(process.env.API_KEY_CPU_ROUNDS ?? 5);

async function main() {
  const redis = await leaseRedisDb();
  const upstream = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"success":true,"dips":[]}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = upstream.address() as { port: number };
  const gateway = await startTestGateway({
    redisUrl: redis.url,
    upstreams: { dip: `http://127.0.0.1:${address.port}` },
    env: { RATE_LIMIT_MAX: '100000000', API_KEY_RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'silent' },
  });
  const { client, user } = await signedInClient(gateway, redis, {
    email: 'bench@example.co.uk',
    name: 'Bench',
  });
  const storeRedis = await connectedRedis(redis.url);
  const made = await new ApiKeyStore(storeRedis, systemClock).create({
    userId: user.userId,
    email: user.email,
    ownerName: user.name,
    verified: true,
    keyName: 'bench',
  });
  const path = `/api/online-dip/user/${user.userId}`;
  const sessionHeaders = { cookie: `sid=${client.cookie('sid')}` };
  const keyHeaders = { authorization: `Bearer ${made!.key}` };

  async function block(headers: Record<string, string>, calls: number): Promise<number> {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) {
      const res = await fetch(`${gateway.url}${path}`, { headers });
      if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / calls;
  }

  // Warm up both paths (JIT, connections, the Redis scripts).
  await block(sessionHeaders, 500);
  await block(keyHeaders, 500);
  const session: number[] = [];
  const key: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    session.push(await block(sessionHeaders, CALLS));
    key.push(await block(keyHeaders, CALLS));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const sessionUs = median(session);
  const keyUs = median(key);
  const line = (label: string, values: number[]) =>
    `  ${label}: ${median(values).toFixed(0)} µs CPU per call (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`;
  process.stdout.write(
    [
      `API key vs session, ${ROUNDS} rounds × ${CALLS} calls each, gateway and client in one process:`,
      line('session cookie', session),
      line('API key       ', key),
      `  extra for a key: ${(keyUs - sessionUs).toFixed(0)} µs per call (${(((keyUs - sessionUs) / sessionUs) * 100).toFixed(1)}%)`,
      '',
    ].join('\n'),
  );

  // The key's own hashing on its own: SHA-256 of the key and the constant-time compare.
  const digest = createHash('sha256').update(made!.key).digest();
  const hashes = 100_000;
  const before = process.cpuUsage();
  for (let i = 0; i < hashes; i++) timingSafeEqual(createHash('sha256').update(made!.key).digest(), digest);
  const hashed = process.cpuUsage(before);
  process.stdout.write(
    `  of which the key's SHA-256 and compare: ${((hashed.user + hashed.system) / hashes).toFixed(2)} µs\n`,
  );

  await gateway.close();
  await storeRedis.quit();
  upstream.close();
  await redis.release();
}

main().catch((err) => {
  process.stderr.write(`✖ ${err.stack ?? err.message}\n`);
  process.exit(1);
});
