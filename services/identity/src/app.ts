import cookie from '@fastify/cookie';
import {
  SESSION_COOKIE,
  createAccountBodySchema,
  loginBodySchema,
  registerBodySchema,
  resendVerificationBodySchema,
  saveLeadInfoBodySchema,
  verifyEmailQuerySchema,
} from '@lsp/contracts';
import {
  HttpError,
  type ServiceRuntime,
  createServiceApp,
  forbidden,
  parseInput,
  requireCaller,
  unauthorized,
} from '@lsp/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type EventOutbox, Accounts, MESSAGES } from './accounts';
import type { IdentityConfig } from './config';
import { dummyHash, verifyPassword } from './passwords';
import { SessionStore } from './sessions';
import { LoginThrottle, ResendLimiter } from './throttles';
import { normaliseEmail, publicUser } from './users';

export type IdentityDeps = Pick<
  ServiceRuntime<IdentityConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo' | 'redis'
> & { outbox: EventOutbox };

export const INVALID_CREDENTIALS = 'Invalid credentials. Please check your email and password.';

/** 429s say when to come back, in the body and in Retry-After. */
function withRetryAfter(reply: FastifyReply, err: unknown): never {
  const seconds = (err as HttpError).details?.retryAfterSeconds;
  if (err instanceof HttpError && err.statusCode === 429 && typeof seconds === 'number') {
    reply.header('retry-after', String(seconds));
  }
  throw err;
}

export function buildApp(deps: IdentityDeps) {
  const { config, redis } = deps;
  const app = createServiceApp({
    name: 'identity',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: config.INTERNAL_SECRET,
  });
  app.register(cookie, { secret: config.COOKIE_SECRET });

  const sessions = new SessionStore(redis);
  const throttle = new LoginThrottle(redis, config);
  const accounts = new Accounts(deps.mongo, deps.outbox, sessions, new ResendLimiter(redis, config), config);
  const users = accounts.users;
  let dummy: Promise<string> | undefined;

  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: new URL(config.PUBLIC_URL).protocol === 'https:',
    signed: true,
    maxAge: sessions.ttlSeconds,
  };
  const sessionIdOf = (request: FastifyRequest): string | null => {
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : null;
  };
  const { signed: _signed, maxAge: _maxAge, ...clearOptions } = cookieOptions;

  app.get('/api/auth/me', async (request, reply) => {
    if (!request.caller) throw unauthorized('Not signed in');
    const { userId, name, email, verified } = request.caller;
    // The header asks on every page load: renewing the cookie here keeps an active browser signed
    // in for as long as its session slides forward in Redis.
    const sessionId = sessionIdOf(request);
    if (sessionId) reply.setCookie(SESSION_COOKIE, sessionId, cookieOptions);
    return { user: { id: userId, name, email, verified } };
  });

  app.post('/api/login', async (request, reply) => {
    const body = parseInput(loginBodySchema, request.body);
    const email = normaliseEmail(body.email);
    await throttle.beforeAttempt(email, request.clientAddress).catch((err) => withRetryAfter(reply, err));
    const user = await users.findOne({ email });
    // Unknown emails are checked against a throwaway hash so they take as long as a wrong password.
    const valid = user
      ? await verifyPassword(body.password, user.passwordHash)
      : await verifyPassword(body.password, await (dummy ??= dummyHash(config.PASSWORD_HASH_COST))).then(
          () => false,
        );
    if (!user || !valid) {
      await throttle.recordFailure(email, request.clientAddress);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    await throttle.recordSuccess(email, request.clientAddress);
    // A session the browser held before signing in is ended, never promoted (no fixation).
    const previous = sessionIdOf(request);
    if (previous) await sessions.destroy(previous);
    const sessionId = await sessions.create({
      userId: user.id as string,
      email: user.email,
      name: user.name,
      verified: user.emailVerified,
    });
    reply.setCookie(SESSION_COOKIE, sessionId, cookieOptions);
    request.log.info({ userId: user.id }, 'signed in');
    return { success: true, user: publicUser(user) };
  });

  app.post('/api/logout', async (request, reply) => {
    const sessionId = sessionIdOf(request);
    if (sessionId) await sessions.destroy(sessionId);
    reply.clearCookie(SESSION_COOKIE, clearOptions);
    return { success: true };
  });

  app.post('/api/auth/register', async (request, reply) => {
    const body = parseInput(registerBodySchema, request.body);
    const user = await accounts.signUp(
      {
        name: body.name,
        email: body.email,
        password: body.password,
        source: 'register',
        refDealId: body.refDealId,
        fromSharedLink: body.fromSharedLink,
      },
      request.id,
    );
    request.log.info({ userId: user.id }, 'registered');
    return reply.status(201).send({
      success: true,
      user: publicUser(user),
      message: MESSAGES.registered,
      requiresVerification: true,
    });
  });

  app.post('/api/create-account', async (request, reply) => {
    const body = parseInput(createAccountBodySchema, request.body);
    const user = await accounts.signUp(
      {
        name: body.name,
        email: body.email,
        password: body.password,
        phone: body.phone,
        source: 'create-account',
        signupSearchData: body.searchData,
      },
      request.id,
    );
    request.log.info({ userId: user.id }, 'account created');
    return reply.status(201).send({ success: true, message: MESSAGES.accountCreated });
  });

  app.get('/api/verify-email', async (request) => {
    const { token } = parseInput(verifyEmailQuerySchema, request.query);
    const user = await accounts.verifyEmail(token, request.id);
    request.log.info({ userId: user.id }, 'email verified');
    return { success: true, message: MESSAGES.verified, user: { name: user.name, email: user.email } };
  });

  app.post('/api/auth/resend-verification', async (request, reply) => {
    const { email } = parseInput(resendVerificationBodySchema, request.body);
    await accounts.resendVerification(email, request.id).catch((err) => withRetryAfter(reply, err));
    return { success: true, message: MESSAGES.verificationSent };
  });

  app.post('/api/save-lead-info', async (request) => {
    const caller = requireCaller(request);
    const body = parseInput(saveLeadInfoBodySchema, request.body);
    if (body.userId && body.userId !== caller.userId) throw forbidden();
    const { leadInfo } = body;
    const result = await users.updateOne(
      { _id: caller.userId },
      {
        $set: {
          propertiesOwned: leadInfo.propertiesOwned,
          contactPreference: leadInfo.contactPreference,
          hasViewedProperty: leadInfo.hasViewedProperty,
          ownsProperty: leadInfo.ownsProperty,
          agreedPurchasePrice: leadInfo.agreedPurchasePrice,
          ...(leadInfo.consent !== undefined ? { consent: leadInfo.consent } : {}),
          ...(leadInfo.phone ? { phone: leadInfo.phone } : {}),
          leadSearchData: body.searchData,
          leadCapturedAt: new Date(),
        },
      },
    );
    if (result.matchedCount === 0) throw unauthorized('Not signed in');
    return { success: true };
  });

  return app;
}
