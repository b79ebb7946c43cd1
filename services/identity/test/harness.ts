import { type EventEnvelope } from '@lsp/contracts';
import { ServiceMetrics } from '@lsp/service-kit';
import { type EventBus, Outbox, OutboxRelay } from '@lsp/service-kit';
import {
  CookieClient,
  type TestMongo,
  type TestRedis,
  TEST_SECRETS,
  TestClock,
  connectedRedis,
  listen,
  outboxEnvelopes,
  silentLogger,
  startHarness,
  waitFor,
} from '@lsp/testing';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import type { Connection } from 'mongoose';
import { buildApp } from '../src/app';
import { type IdentityConfig, identityConfigSchema } from '../src/config';
import { userModel } from '../src/data/users';

export interface IdentityStack {
  mongo: TestMongo;
  redis: TestRedis;
  db: Connection;
  config: IdentityConfig;
  outbox: Outbox;
  identityUrl: string;
  gateway: TestGateway;
  users: ReturnType<typeof userModel>;
  /** The clock identity judges every expiry by; a test that moves it puts it back with reset(). */
  clock: TestClock;
  browser(): CookieClient;
  /** Events identity wrote to its outbox, oldest first. */
  events(type?: string): Promise<EventEnvelope<any>[]>;
  close(): Promise<void>;
}

/** Identity in-process on a free port, behind the real gateway, on its own database and Redis db. */
export function startIdentityStack(
  opts: {
    env?: Record<string, string>;
    gatewayEnv?: Record<string, string>;
    /** Share a MongoDB server and a Redis db with other services of the test. */
    mongo?: TestMongo;
    redis?: TestRedis;
    /** Relay the outbox to this bus, as the identity process does. */
    relayTo?: Pick<EventBus, 'publish'>;
    /** MongoDB for fault tests: fail points, and connections that report their commands. */
    testCommands?: boolean;
  } = {},
): Promise<IdentityStack> {
  return startHarness(
    async ({ mongo, redis, env, onClose }) => {
      const db = await mongo.database('identity');
      const config = identityConfigSchema.parse({
        ...TEST_SECRETS,
        ...env,
        PUBLIC_URL: 'http://localhost:8080',
        // Cheaper hashing keeps the suite quick; the format and the checks are the same.
        PASSWORD_HASH_COST: '12',
        LOGIN_SLOWDOWN_STEP_MS: '5',
        LOGIN_SLOWDOWN_MAX_MS: '20',
        ...opts.env,
      });
      const serviceRedis = await connectedRedis(redis.url);
      onClose(() => serviceRedis.quit());
      const outbox = await Outbox.open(db);
      const clock = new TestClock();
      const app = buildApp({
        config,
        logger: silentLogger(),
        metrics: new ServiceMetrics('identity'),
        healthChecks: [],
        mongo: db,
        redis: serviceRedis,
        outbox,
        clock,
      });
      const identity = await listen(app);
      onClose(() => identity.close());
      // Published at commit, as in production; the relay's hourly poll is only the safety net.
      if (opts.relayTo) outbox.publishAtCommit({ bus: opts.relayTo });
      const relay = opts.relayTo
        ? new OutboxRelay({ outbox, bus: opts.relayTo, pollIntervalMs: 3600_000 })
        : null;
      relay?.start();
      const gateway = await startTestGateway({
        redisUrl: redis.url,
        upstreams: { identity: identity.url },
        // The gateway's own limits have their own tests; here they must not mask identity's answers.
        env: { RATE_LIMIT_MAX: '100000', RATE_LIMIT_AUTH_MAX: '100000', ...opts.gatewayEnv },
      });
      onClose(() => gateway.close());
      onClose(async () => {
        await relay?.stop();
        await outbox.drain();
      });
      return {
        mongo,
        redis,
        db,
        config,
        outbox,
        identityUrl: identity.url,
        gateway,
        users: userModel(db),
        clock,
        browser: () => new CookieClient(gateway.url),
        events: (type?: string) => outboxEnvelopes(outbox, type),
      };
    },
    { mongo: opts.mongo, redis: opts.redis, testCommands: opts.testCommands },
  );
}

/** The token of the newest verification email asked for an address. */
export async function latestVerificationToken(stack: IdentityStack, email: string): Promise<string> {
  const events = await stack.events('identity.verification.requested');
  const mine = events.filter((e) => e.data.email === email.toLowerCase());
  const last = mine[mine.length - 1];
  if (!last) throw new Error(`no verification requested for ${email}`);
  return new URL(last.data.verificationUrl).searchParams.get('token') as string;
}

/** The token of the newest password-reset email asked for an address, waiting for it to be written. */
export async function latestResetToken(stack: IdentityStack, email: string, after = 0): Promise<string> {
  const event = await waitFor(async () => {
    const mine = (await stack.events('identity.password-reset.requested')).filter(
      (e) => e.data.email === email.toLowerCase(),
    );
    return mine.length > after ? mine[mine.length - 1] : null;
  }, `a password reset email for ${email}`);
  return new URL(event.data.resetUrl).searchParams.get('token') as string;
}

/** Registers an account and follows its verification link, each from a new browser. */
export async function registerVerified(
  stack: IdentityStack,
  account: { name: string; email: string; password: string },
): Promise<void> {
  const res = await stack.browser().post('/api/auth/register', account);
  expect(res.status).toBe(201);
  const token = await latestVerificationToken(stack, account.email);
  expect((await stack.browser().get(`/api/verify-email?token=${token}`)).status).toBe(200);
}

/** A new browser signed in with the email and password given. */
export async function signedInBrowser(
  stack: IdentityStack,
  email: string,
  password: string,
): Promise<CookieClient> {
  const browser = stack.browser();
  const res = await browser.post('/api/login', { email, password });
  expect(res.status).toBe(200);
  return browser;
}

/** Lead answers the save-lead-info route accepts, as the lead form sends them. */
export const LEAD_INFO = {
  fullName: 'Ada Lovelace',
  propertiesOwned: '3-5',
  contactPreference: 'Phone',
  hasViewedProperty: true,
  ownsProperty: false,
  agreedPurchasePrice: true,
  phone: '07700 900456',
};
