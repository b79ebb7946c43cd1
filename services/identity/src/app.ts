import { parseOpsEmails } from '@lsp/contracts';
import cookie from '@fastify/cookie';
import {
  type Clock,
  type EventOutbox,
  type ServiceRuntime,
  createServiceApp,
  systemClock,
} from '@lsp/service-kit';
import type { IdentityConfig } from './config';
import { Accounts } from './data/accounts';
import { ApiKeyStore } from './data/api-keys';
import { PasswordResets } from './data/password-resets';
import { SessionStore } from './data/sessions';
import { LoginThrottle, ResendLimiter, ResetLimiter } from './data/throttles';
import { registerAccountRoutes } from './http/accounts';
import { registerApiKeyRoutes } from './http/api-keys';
import { registerPasswordRoutes } from './http/passwords';
import { deviceCookies } from './http/device-cookie';
import { sessionCookie } from './http/session-cookie';
import { registerSessionRoutes } from './http/sessions';
import { registerVerificationRoutes } from './http/verification';

export type IdentityDeps = Pick<
  ServiceRuntime<IdentityConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo' | 'redis'
> & {
  outbox: EventOutbox;
  /** The clock every expiry is judged by (tests move it). */
  clock?: Clock;
};

export function buildApp(deps: IdentityDeps) {
  const { config, redis } = deps;
  const clock = deps.clock ?? systemClock;
  const app = createServiceApp({
    name: 'identity',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: config.INTERNAL_SECRET,
    metricsToken: config.METRICS_TOKEN,
  });
  app.register(cookie, { secret: config.COOKIE_SECRET });

  const sessions = new SessionStore(redis, clock, undefined, config.SESSION_ABSOLUTE_LIFETIME_SECONDS);
  sessions.opsEmails = parseOpsEmails(config.OPS_EMAILS);
  const throttle = new LoginThrottle(redis, config);
  const accounts = new Accounts(
    deps.mongo,
    deps.outbox,
    sessions,
    new ResendLimiter(redis, config),
    config,
    clock,
  );
  const users = accounts.users;
  const passwordResets = new PasswordResets(
    deps.mongo,
    deps.outbox,
    sessions,
    new ResetLimiter(redis, config),
    config,
    deps.logger,
    clock,
  );
  const sessionCookies = sessionCookie(config, sessions);

  const devices = deviceCookies(config, clock);

  registerSessionRoutes(app, { config, sessions, throttle, users, cookie: sessionCookies, devices });
  registerPasswordRoutes(app, {
    sessions,
    throttle,
    users,
    passwordResets,
    cookie: sessionCookies,
    devices,
  });
  registerAccountRoutes(app, { accounts, users });
  registerVerificationRoutes(app, { accounts });
  registerApiKeyRoutes(app, { apiKeys: new ApiKeyStore(redis, clock) });
  return app;
}
