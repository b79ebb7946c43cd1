import { PASSWORD_MESSAGES, SESSION_COOKIE } from '@lsp/contracts';
import { unauthorized, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { IdentityConfig } from '../config';
import type { SessionStore } from '../data/sessions';
import { type UserModel, normaliseEmail, publicUser } from '../data/users';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../domain/passwords';
import type { LoginThrottle } from '../data/throttles';
import type { DeviceCookies } from './device-cookie';
import { type SessionCookie, withRetryAfter } from './session-cookie';

export const INVALID_CREDENTIALS = 'Invalid credentials. Please check your email and password.';

export interface SessionRouteDeps {
  config: Pick<IdentityConfig, 'PASSWORD_HASH_COST'>;
  sessions: SessionStore;
  throttle: LoginThrottle;
  users: UserModel;
  cookie: SessionCookie;
  devices: DeviceCookies;
}

/** Signing in and out: /api/auth/me, /api/login, /api/logout, /api/auth/logout-all. */
export function registerSessionRoutes(app: FastifyInstance, deps: SessionRouteDeps) {
  const { config, sessions, throttle, users, cookie, devices } = deps;
  let dummy: Promise<string> | undefined;

  declareRoute(
    app,
    'getCurrentUser',
    async (request, reply) => {
      const { userId, name, email, verified, roles } = request.caller;
      // The header asks on every page load: renewing the cookie here keeps an active browser signed
      // in for as long as its session slides forward in Redis.
      // The cookie never outlives the session's absolute end.
      const sessionId = cookie.sessionIdOf(request);
      const record = sessionId ? await sessions.get(sessionId) : null;
      if (sessionId && record) {
        reply.setCookie(SESSION_COOKIE, sessionId, {
          ...cookie.options,
          maxAge: sessions.remainingSeconds(record),
        });
      }
      return { user: { id: userId, name, email, verified, roles } };
    },
    { signInMessage: 'Not signed in' },
  );

  declareRoute(app, 'login', async (request, reply) => {
    const { body } = request;
    const email = normaliseEmail(body.email);
    // A browser that signed in to this account before is judged by its own failures only.
    const device = devices.trustedDevice(request, email);
    await throttle
      .beforeAttempt(email, request.clientAddress, device)
      .catch((err) => withRetryAfter(reply, err));
    const user = await users.findOne({ email });
    // Unknown emails are checked against a throwaway hash so they take as long as a wrong password.
    const valid = user
      ? await verifyPassword(body.password, user.passwordHash)
      : await verifyPassword(body.password, await (dummy ??= dummyHash(config.PASSWORD_HASH_COST))).then(
          () => false,
        );
    if (!user || !valid) {
      await throttle.recordFailure(email, request.clientAddress, device);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    await throttle.recordSuccess(email, request.clientAddress, device);
    // A hash made with weaker parameters than today's is replaced now that the password is known;
    // only if it is still the stored one (a reset meanwhile wins).
    let checkedHash = user.passwordHash;
    if (needsRehash(user.passwordHash, config.PASSWORD_HASH_COST)) {
      const rehashed = await hashPassword(body.password, config.PASSWORD_HASH_COST);
      const { modifiedCount } = await users.updateOne(
        { _id: user._id, passwordHash: user.passwordHash },
        { $set: { passwordHash: rehashed } },
      );
      if (modifiedCount === 1) {
        checkedHash = rehashed;
        request.log.info({ userId: user.id, cost: config.PASSWORD_HASH_COST }, 'password rehashed');
      }
    }
    // A session the browser held before signing in is ended, never promoted (no fixation).
    const previous = cookie.sessionIdOf(request);
    if (previous) await sessions.destroy(previous);
    const sessionId = await sessions.create({
      userId: user.id as string,
      email: user.email,
      name: user.name,
      verified: user.emailVerified,
    });
    // A reset or change that ended every session while this sign-in was checking the old password
    // must not be outlived by it: the session stays only if the password it proved is still current.
    if (!(await users.exists({ _id: user._id, passwordHash: checkedHash }))) {
      await sessions.destroy(sessionId);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    cookie.setNew(reply, sessionId);
    devices.issue(reply, email);
    request.log.info({ userId: user.id, trustedDevice: device !== null }, 'signed in');
    return { success: true, user: publicUser(user) };
  });

  declareRoute(app, 'logout', async (request, reply) => {
    const sessionId = cookie.sessionIdOf(request);
    if (sessionId) await sessions.destroy(sessionId);
    cookie.clear(reply);
    return { success: true };
  });

  // Sign out everywhere: every session of the caller ends, this browser's included.
  declareRoute(app, 'logoutEverywhere', async (request, reply) => {
    const { caller } = request;
    const ended = await sessions.destroyAll(caller.userId);
    cookie.clear(reply);
    request.log.info({ userId: caller.userId, ended }, 'signed out everywhere');
    return { success: true, message: PASSWORD_MESSAGES.signedOutEverywhere };
  });
}
