import { PASSWORD_MESSAGES } from '@lsp/contracts';
import { HttpError, unauthorized } from '@lsp/service-kit';
import type { PasswordResets } from '../data/password-resets';
import type { SessionStore } from '../data/sessions';
import type { LoginThrottle } from '../data/throttles';
import type { UserModel } from '../data/users';
import { verifyPassword } from '../domain/passwords';
import type { RequestContext } from './request-context';

export interface PasswordDeps {
  sessions: SessionStore;
  throttle: LoginThrottle;
  users: UserModel;
  passwordResets: PasswordResets;
}

/** The same answer whether or not the address has an account; the email is sent only if it has. */
export async function forgotPassword(
  deps: Pick<PasswordDeps, 'passwordResets'>,
  input: { email: string; clientAddress: string },
  context: RequestContext,
) {
  await deps.passwordResets.request(input.email, input.clientAddress, context.requestId);
  return { success: true as const, message: PASSWORD_MESSAGES.resetRequested };
}

/**
 * A new password by the emailed link. Every session of the user ends, and so does the one the
 * browser held, even for another account.
 */
export async function resetPassword(
  deps: PasswordDeps,
  input: { token: string; password: string; clientAddress: string; currentSessionId: string | null },
  context: RequestContext,
) {
  const user = await deps.passwordResets.reset(input.token, input.password, context.requestId);
  // The person who proved they hold the mailbox may try sign-in afresh.
  await deps.throttle.recordSuccess(user.email, input.clientAddress);
  if (input.currentSessionId) await deps.sessions.destroy(input.currentSessionId);
  context.log.info({ userId: user.id }, 'password reset; every session ended');
  return { success: true as const, message: PASSWORD_MESSAGES.resetDone };
}

export interface PasswordChange {
  userId: string;
  currentPassword: string;
  password: string;
  clientAddress: string;
  /** The device the browser proves it is for this email's account, or null. */
  trustedDeviceFor: (email: string) => string | null;
}

/**
 * A signed-in change: the current password is checked (and counted like a sign-in failure when
 * wrong); every session ends and the browser gets the fresh one answered here.
 */
export async function changePassword(deps: PasswordDeps, input: PasswordChange, context: RequestContext) {
  const { sessions, throttle, users, passwordResets } = deps;
  const user = await users.findById(input.userId);
  if (!user) throw unauthorized('Not signed in');
  const device = input.trustedDeviceFor(user.email);
  await throttle.beforeAttempt(user.email, input.clientAddress, device);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await throttle.recordFailure(user.email, input.clientAddress, device);
    throw new HttpError(400, PASSWORD_MESSAGES.currentPasswordWrong);
  }
  const updated = await passwordResets.change(user, input.password, context.requestId);
  if (!updated) throw new HttpError(409, 'Your password was changed meanwhile. Please sign in again.');
  const sessionId = await sessions.create({
    userId: input.userId,
    email: updated.email,
    name: updated.name,
    verified: updated.emailVerified,
  });
  context.log.info({ userId: input.userId }, 'password changed; every other session ended');
  return { sessionId, answer: { success: true as const, message: PASSWORD_MESSAGES.changed } };
}
