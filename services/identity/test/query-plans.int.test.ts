// The plans of identity's own reads: sign-in, registration, verification and password reset run
// through identity's routes against the indexes its user schema declares, the find each sent is
// explained as sent, and the plan must read through the index meant for it, never every account.
import { Outbox, ServiceMetrics } from '@lsp/service-kit';
import {
  TEST_SECRETS,
  TestClock,
  connectedRedis,
  expectIndexedPlan,
  leaseRedisDb,
  silentLogger,
  startQueryPlans,
  useHarness,
} from '@lsp/testing';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app';
import { identityConfigSchema } from '../src/config';
import { userModel } from '../src/data/users';
import { hashPassword } from '../src/domain/passwords';
import { hashToken } from '../src/domain/tokens';

const PASSWORD = 'correct horse battery staple';
const emailOf = (i: number) => `person-${i}@example.com`;

const h = useHarness(async () => {
  const q = await startQueryPlans('identity');
  const redis = await leaseRedisDb();
  const serviceRedis = await connectedRedis(redis.url);
  const config = identityConfigSchema.parse({
    ...TEST_SECRETS,
    MONGO_URL: q.mongo.url,
    REDIS_URL: redis.url,
    PUBLIC_URL: 'http://localhost:8080',
    PASSWORD_HASH_COST: '12',
  });
  const app: FastifyInstance = buildApp({
    config,
    logger: silentLogger(),
    metrics: new ServiceMetrics('identity'),
    healthChecks: [],
    mongo: q.db,
    redis: serviceRedis,
    outbox: await Outbox.open(q.db),
    clock: new TestClock(),
  });
  await app.ready();
  return {
    q,
    app,
    async close() {
      await app.close();
      await serviceRedis.quit();
      await redis.release();
      await q.close();
    },
  };
});

beforeAll(async () => {
  const users = userModel(h.q.db);
  // The indexes the schema declares, built as the service's connection builds them (autoIndex).
  await users.init();
  const passwordHash = await hashPassword(PASSWORD, 12);
  // Expiries are judged by identity's clock, which runs with real time.
  const now = Date.now();
  // 300 accounts: a third with a verification link out, a third verified, one in ten with a reset link.
  await users.collection.insertMany(
    Array.from({ length: 300 }, (_, i) => ({
      email: emailOf(i),
      name: `Person ${i}`,
      passwordHash,
      emailVerified: i % 3 === 1,
      verificationToken: i % 3 === 0 ? hashToken(`verify-${i}`) : null,
      verificationExpiresAt: new Date(now + 24 * 3600_000),
      usedVerificationToken: i % 3 === 1 ? hashToken(`verify-${i}`) : null,
      passwordResetToken: i % 10 === 0 ? hashToken(`reset-${i}`) : null,
      passwordResetExpiresAt: i % 10 === 0 ? new Date(now + 3600_000) : null,
      source: 'register',
      createdAt: new Date(now - i * 60_000),
      updatedAt: new Date(now - i * 60_000),
    })),
  );
});

/** The reads of `users` one request to identity sent, and its answer's status. */
async function usersReadBy(request: InjectOptions) {
  let status = 0;
  const reads = await h.q.readsOf(async () => {
    status = (await h.app.inject(request)).statusCode;
  });
  return { status, reads: reads.filter((read) => read.collection === 'users') };
}

it('sign-in: the account by email, then its password still current by id', async () => {
  const { status, reads } = await usersReadBy({
    method: 'POST',
    url: '/api/login',
    payload: { email: emailOf(41), password: PASSWORD },
  });
  expect(status).toBe(200);
  expect(reads).toHaveLength(2);
  expectIndexedPlan(await h.q.planOf(reads[0]), { index: 'email_1' });
  expectIndexedPlan(await h.q.planOf(reads[1]), { index: '_id_' });
});

it('registration: whether the email has an account already', async () => {
  const { status, reads } = await usersReadBy({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Person Forty', email: emailOf(40), password: PASSWORD },
  });
  expect(status).toBe(409);
  expect(reads).toHaveLength(1);
  expectIndexedPlan(await h.q.planOf(reads[0]), { index: 'email_1' });
});

it('verification: the account by its outstanding token, and a used token’s account', async () => {
  // The index is sparse: a token (never null in the query) is in it.
  const fresh = await usersReadBy({ method: 'GET', url: '/api/verify-email?token=verify-30' });
  expect(fresh.status).toBe(200);
  expect(fresh.reads).toHaveLength(1);
  expectIndexedPlan(await h.q.planOf(fresh.reads[0]), { index: 'verificationToken_1' });
  const used = await usersReadBy({ method: 'GET', url: '/api/verify-email?token=verify-31' });
  expect(used.status).toBe(409);
  expect(used.reads).toHaveLength(2);
  expectIndexedPlan(await h.q.planOf(used.reads[1]), { index: 'usedVerificationToken_1' });
});

it('password reset: the account by its outstanding, unexpired reset token', async () => {
  const { status, reads } = await usersReadBy({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: 'reset-70', password: `${PASSWORD}!`, confirmPassword: `${PASSWORD}!` },
  });
  expect(status).toBe(200);
  expectIndexedPlan(await h.q.planOf(reads[0]), { index: 'passwordResetToken_1' });
});
