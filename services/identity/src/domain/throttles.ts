import type { IdentityConfig } from '../config';

export const LOGIN_LOCKED_MESSAGE = 'Too many sign-in attempts. Please wait a few minutes and try again.';
export const RESEND_TOO_SOON_MESSAGE =
  'A verification email was sent very recently. Please wait a minute before asking for another.';
export const RESEND_TOO_MANY_MESSAGE =
  'Too many verification emails were requested for this address. Please try again in an hour.';

export type LoginThrottleConfig = Pick<
  IdentityConfig,
  | 'LOGIN_FAILURE_WINDOW_SECONDS'
  | 'LOGIN_SLOWDOWN_AFTER'
  | 'LOGIN_SLOWDOWN_STEP_MS'
  | 'LOGIN_SLOWDOWN_MAX_MS'
  | 'LOGIN_LOCK_AFTER_PER_EMAIL'
  | 'LOGIN_LOCK_AFTER_PER_IP'
>;

export type ResendConfig = Pick<IdentityConfig, 'RESEND_MIN_INTERVAL_SECONDS' | 'RESEND_MAX_PER_HOUR'>;

export type ResetConfig = Pick<
  IdentityConfig,
  | 'PUBLIC_URL'
  | 'PASSWORD_HASH_COST'
  | 'PASSWORD_RESET_TTL_MINUTES'
  | 'PASSWORD_RESET_MIN_INTERVAL_SECONDS'
  | 'PASSWORD_RESET_MAX_PER_HOUR'
  | 'PASSWORD_RESET_MAX_PER_HOUR_PER_IP'
>;

/** Failed sign-ins of untrusted clients in the current window, for one email (registered or not) and one client address. */
export interface SignInFailures {
  byEmail: number;
  byIp: number;
}

/**
 * Which count has locked sign-in for untrusted clients, if any: past it every attempt without a valid
 * device cookie for the account is refused with 429 until the window has passed, even with the right
 * password.
 */
export function lockedBy(failures: SignInFailures, config: LoginThrottleConfig): 'email' | 'ip' | null {
  if (failures.byEmail >= config.LOGIN_LOCK_AFTER_PER_EMAIL) return 'email';
  if (failures.byIp >= config.LOGIN_LOCK_AFTER_PER_IP) return 'ip';
  return null;
}

/**
 * Whether a trusted device (one with a valid device cookie for the account) is locked: by its own
 * failures only, at the same threshold as an email.
 */
export function deviceLocked(failuresOfDevice: number, config: LoginThrottleConfig): boolean {
  return failuresOfDevice >= config.LOGIN_LOCK_AFTER_PER_EMAIL;
}

/**
 * How long the next attempt waits: nothing up to the first threshold, then one step more per failure,
 * capped. An address counts a third as much as an email, since many people can share one.
 */
export function slowdownMs(failures: SignInFailures, config: LoginThrottleConfig): number {
  const over = Math.max(failures.byEmail, Math.floor(failures.byIp / 3)) - config.LOGIN_SLOWDOWN_AFTER + 1;
  return over > 0 ? Math.min(config.LOGIN_SLOWDOWN_MAX_MS, over * config.LOGIN_SLOWDOWN_STEP_MS) : 0;
}
