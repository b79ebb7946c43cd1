// What every service's integration harness sets up the same way: MongoDB and a leased Redis database,
// the variables a service's config needs to reach them, teardown in the reverse order of start-up,
// people signed in through the gateway's cookie, and the service's outbox read back. Each harness keeps
// what is its service's own: its config, its app and repositories, its buses and its test users.
import { randomBytes } from 'node:crypto';
import {
  type EventEnvelope,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  type SessionRecord,
  sessionKey,
} from '@lsp/contracts';
import type { CallerIdentity, Outbox, OutboxEntry } from '@lsp/service-kit';
import { CookieClient } from './http-client';
import { TEST_SECRETS } from './in-process';
import { type TestMongo, startTestMongo } from './mongo';
import { type TestRedis, leaseRedisDb } from './redis';

export interface HarnessBackends {
  mongo: TestMongo;
  redis: TestRedis;
  /** What every service's config needs to reach them: the internal secret, MONGO_URL and REDIS_URL. */
  env: { INTERNAL_SECRET: string; MONGO_URL: string; REDIS_URL: string };
  /** Runs `close` when the harness closes, or when it fails to start: the last registered first. */
  onClose(close: () => Promise<unknown>): void;
}

/**
 * Starts a harness on MongoDB (`startTestMongo`) and a leased Redis database, or on the ones given
 * (shared with other services of the test, and then left running). `build` starts the service and
 * registers how to stop each part; the harness's `close()` stops them, last started first, then
 * releases the Redis database and stops MongoDB. If `build` throws, whatever it started is stopped
 * and the error is rethrown. `testCommands` starts MongoDB for fault tests (see `TestMongoOptions`).
 */
export async function startHarness<T extends object>(
  build: (backends: HarnessBackends) => Promise<T>,
  shared: { mongo?: TestMongo; redis?: TestRedis; testCommands?: boolean } = {},
): Promise<T & { close(): Promise<void> }> {
  const closers: Array<() => Promise<unknown>> = [];
  const mongo = shared.mongo ?? (await startTestMongo({ testCommands: shared.testCommands }));
  if (!shared.mongo) closers.push(() => mongo.stop());
  try {
    const redis = shared.redis ?? (await leaseRedisDb());
    if (!shared.redis) closers.push(() => redis.release());
    const built = await build({
      mongo,
      redis,
      env: { INTERNAL_SECRET: TEST_SECRETS.INTERNAL_SECRET, MONGO_URL: mongo.url, REDIS_URL: redis.url },
      onClose: (close) => closers.push(close),
    });
    return Object.assign(built, { close: () => closeAll(closers) });
  } catch (err) {
    await closeAll(closers).catch(() => undefined);
    throw err;
  }
}

/** Runs every closer, last registered first; the first failure is thrown once all have run. */
async function closeAll(closers: Array<() => Promise<unknown>>): Promise<void> {
  let failure: unknown;
  for (const close of closers.splice(0).reverse()) {
    try {
      await close();
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure !== undefined) throw failure;
}

/** The gateway a harness signs people in through: its URL and its cookie signer. */
export interface SigningGateway {
  url: string;
  app: { signCookie(value: string): string };
}

/**
 * A browser-like client signed in as `user` (a random user id and verified unless given): a session
 * record in the gateway's Redis and the gateway's signed session cookie, as identity's sign-in leaves them.
 */
export async function signedInClient(
  gateway: SigningGateway,
  redis: TestRedis,
  person: Pick<CallerIdentity, 'email' | 'name'> & Partial<CallerIdentity>,
): Promise<{ client: CookieClient; user: CallerIdentity }> {
  const user: CallerIdentity = {
    userId: `user-${randomBytes(6).toString('hex')}`,
    verified: true,
    ...person,
  };
  const sessionId = randomBytes(24).toString('base64url');
  const record: SessionRecord = { ...user, createdAt: new Date().toISOString() };
  await redis.redis.set(sessionKey(sessionId), JSON.stringify(record), 'EX', SESSION_TTL_SECONDS);
  const client = new CookieClient(gateway.url);
  client.setCookie(SESSION_COOKIE, encodeURIComponent(gateway.app.signCookie(sessionId)));
  return { client, user };
}

/** The entries a service wrote to its outbox (of one type, if given), oldest first. */
export function outboxEntries(outbox: Outbox, type?: string): Promise<OutboxEntry[]> {
  return outbox
    .collection()
    .find(type ? { type } : {})
    .sort({ _id: 1 })
    .toArray();
}

/** The envelopes a service's outbox entries (of one type, if given) publish, oldest first. */
export async function outboxEnvelopes(outbox: Outbox, type?: string): Promise<EventEnvelope<any>[]> {
  return (await outboxEntries(outbox, type)).map((entry) => JSON.parse(entry.payload) as EventEnvelope<any>);
}
