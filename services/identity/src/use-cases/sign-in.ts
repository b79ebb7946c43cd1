import { PASSWORD_MESSAGES } from '@lsp/contracts';
import { type CallerIdentity, unauthorized } from '@lsp/service-kit';
import type { IdentityConfig } from '../config';
import type { SessionStore } from '../data/sessions';
import type { LoginThrottle } from '../data/throttles';
import { type UserModel, normaliseEmail, publicUser } from '../data/users';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../domain/passwords';
import type { RequestContext } from './request-context';

export const INVALID_CREDENTIALS = 'Invalid credentials. Please check your email and password.';

export interface SignInDeps {
  config: Pick<IdentityConfig, 'PASSWORD_HASH_COST'>;
  sessions: SessionStore;
  throttle: LoginThrottle;
  users: UserModel;
}

export interface SignInRequest {
  email: string;
  password: string;
  clientAddress: string;
  /** The session the browser held before signing in, if any: it is ended, never promoted. */
  previousSessionId: string | null;
  /** The device the browser proves it is for this (normalised) email's account, or null. */
  trustedDeviceFor: (email: string) => string | null;
}

export interface SignedIn {
  sessionId: string;
  /** The account's email as stored, which the browser's device cookie names. */
  email: string;
  answer: { success: true; user: ReturnType<typeof publicUser> };
}

/** One throwaway hash per hashing cost, made on first use and kept for the life of the process. */
const dummyHashes = new Map<number, Promise<string>>();

function dummyHashFor(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = dummyHash(cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/** The signed-in caller as the header shows them. */
export function currentUser(caller: CallerIdentity) {
  const { userId, name, email, verified, roles } = caller;
  return { user: { id: userId, name, email, verified, roles } };
}

/**
 * How long the browser's session cookie may now last: the session's time left, which never passes its
 * absolute end. Null when the browser holds no session that is still open.
 */
export async function sessionSecondsLeft(
  deps: Pick<SignInDeps, 'sessions'>,
  sessionId: string | null,
): Promise<number | null> {
  const record = sessionId ? await deps.sessions.get(sessionId) : null;
  return record ? deps.sessions.remainingSeconds(record) : null;
}

/**
 * Checks the email and password under the sign-in throttle and opens a session. A wrong password and
 * an unknown email get the same 401, after the same work.
 */
export async function signIn(
  deps: SignInDeps,
  input: SignInRequest,
  context: RequestContext,
): Promise<SignedIn> {
  const { config, sessions, throttle, users } = deps;
  const email = normaliseEmail(input.email);
  // A browser that signed in to this account before is judged by its own failures only.
  const device = input.trustedDeviceFor(email);
  await throttle.beforeAttempt(email, input.clientAddress, device);
  const user = await users.findOne({ email });
  // Unknown emails are checked against a throwaway hash so they take as long as a wrong password.
  const valid = user
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyPassword(input.password, await dummyHashFor(config.PASSWORD_HASH_COST)).then(() => false);
  if (!user || !valid) {
    await throttle.recordFailure(email, input.clientAddress, device);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await throttle.recordSuccess(email, input.clientAddress, device);
  // A hash made with weaker parameters than today's is replaced now that the password is known;
  // only if it is still the stored one (a reset meanwhile wins).
  let checkedHash = user.passwordHash;
  if (needsRehash(user.passwordHash, config.PASSWORD_HASH_COST)) {
    const rehashed = await hashPassword(input.password, config.PASSWORD_HASH_COST);
    const { modifiedCount } = await users.updateOne(
      { _id: user._id, passwordHash: user.passwordHash },
      { $set: { passwordHash: rehashed } },
    );
    if (modifiedCount === 1) {
      checkedHash = rehashed;
      context.log.info({ userId: user.id, cost: config.PASSWORD_HASH_COST }, 'password rehashed');
    }
  }
  if (input.previousSessionId) await sessions.destroy(input.previousSessionId);
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
  context.log.info({ userId: user.id, trustedDevice: device !== null }, 'signed in');
  return { sessionId, email, answer: { success: true, user: publicUser(user) } };
}

/** Ends the browser's session, if it holds one. */
export async function signOut(deps: Pick<SignInDeps, 'sessions'>, sessionId: string | null) {
  if (sessionId) await deps.sessions.destroy(sessionId);
  return { success: true as const };
}

/** Sign out everywhere: every session of the caller ends, the one asking included. */
export async function signOutEverywhere(
  deps: Pick<SignInDeps, 'sessions'>,
  userId: string,
  context: RequestContext,
) {
  const ended = await deps.sessions.destroyAll(userId);
  context.log.info({ userId, ended }, 'signed out everywhere');
  return { success: true as const, message: PASSWORD_MESSAGES.signedOutEverywhere };
}
