import { PASSWORD_MESSAGES } from '@lsp/contracts';
import { HttpError, unauthorized, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { PasswordResets } from '../data/password-resets';
import type { SessionStore } from '../data/sessions';
import type { UserModel } from '../data/users';
import { verifyPassword } from '../domain/passwords';
import type { LoginThrottle } from '../data/throttles';
import type { DeviceCookies } from './device-cookie';
import { type SessionCookie, withRetryAfter } from './session-cookie';

export interface PasswordRouteDeps {
  sessions: SessionStore;
  throttle: LoginThrottle;
  users: UserModel;
  passwordResets: PasswordResets;
  cookie: SessionCookie;
  devices: DeviceCookies;
}

/** Forgotten, reset and changed passwords: /api/auth/{forgot,reset,change}-password. */
export function registerPasswordRoutes(app: FastifyInstance, deps: PasswordRouteDeps) {
  const { sessions, throttle, users, passwordResets, cookie, devices } = deps;

  // The same answer whether or not the address has an account; the email is sent only if it has.
  declareRoute(app, 'forgotPassword', async (request, reply) => {
    const { email } = request.body;
    await passwordResets
      .request(email, request.clientAddress, request.id)
      .catch((err) => withRetryAfter(reply, err));
    return { success: true, message: PASSWORD_MESSAGES.resetRequested };
  });

  declareRoute(app, 'resetPassword', async (request, reply) => {
    const { body } = request;
    const user = await passwordResets.reset(body.token, body.password, request.id);
    // The person who proved they hold the mailbox may try sign-in afresh.
    await throttle.recordSuccess(user.email, request.clientAddress);
    // Every session of the user has ended; one this browser held for another account ends too.
    const current = cookie.sessionIdOf(request);
    if (current) await sessions.destroy(current);
    cookie.clear(reply);
    request.log.info({ userId: user.id }, 'password reset; every session ended');
    return { success: true, message: PASSWORD_MESSAGES.resetDone };
  });

  // A signed-in change: the current password is checked (and counted like a sign-in failure when
  // wrong); every session ends and this browser gets a fresh one.
  declareRoute(app, 'changePassword', async (request, reply) => {
    const { caller, body } = request;
    const user = await users.findById(caller.userId);
    if (!user) throw unauthorized('Not signed in');
    const device = devices.trustedDevice(request, user.email);
    await throttle
      .beforeAttempt(user.email, request.clientAddress, device)
      .catch((err) => withRetryAfter(reply, err));
    if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
      await throttle.recordFailure(user.email, request.clientAddress, device);
      throw new HttpError(400, PASSWORD_MESSAGES.currentPasswordWrong);
    }
    const updated = await passwordResets.change(user, body.password, request.id);
    if (!updated) throw new HttpError(409, 'Your password was changed meanwhile. Please sign in again.');
    const sessionId = await sessions.create({
      userId: caller.userId,
      email: updated.email,
      name: updated.name,
      verified: updated.emailVerified,
    });
    cookie.setNew(reply, sessionId);
    request.log.info({ userId: caller.userId }, 'password changed; every other session ended');
    return { success: true, message: PASSWORD_MESSAGES.changed };
  });
}
