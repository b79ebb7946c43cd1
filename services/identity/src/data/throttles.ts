import { createHash } from 'node:crypto';
import { PASSWORD_MESSAGES } from '@lsp/contracts';
import { RedisRateLimiter, tooManyRequests } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import {
  LOGIN_LOCKED_MESSAGE,
  type LoginThrottleConfig,
  RESEND_TOO_MANY_MESSAGE,
  RESEND_TOO_SOON_MESSAGE,
  type ResendConfig,
  type ResetConfig,
  deviceLocked,
  lockedBy,
  slowdownMs,
} from '../domain/throttles';

const emailKey = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 32);

const HOUR_MS = 3600_000;

/**
 * Identity's counters live in service-kit's limiter, each window opening with its first count. When
 * Redis does not answer the error reaches the route (no limiter is let through blind): a sign-in that
 * could not be counted must not be guessable.
 */
const limiterOf = (redis: Redis) => new RedisRateLimiter(redis);

/**
 * Brute-force protection for sign-in, counted in Redis so every identity instance agrees (OWASP's
 * device cookies). A client with a valid device cookie for the account (`device`, its nonce) is
 * trusted: its failures count against that device alone, and only they can lock it. Every other
 * client is untrusted: its failures count per email (registered or not, so the answer never reveals
 * which) and per client address, and either count locks untrusted clients only. Past a first
 * threshold each attempt is answered more slowly; past the second it is refused with 429 until the
 * window has passed, even with the right password.
 */
export class LoginThrottle {
  private readonly limiter: RedisRateLimiter;

  constructor(
    redis: Redis,
    private readonly config: LoginThrottleConfig,
  ) {
    this.limiter = limiterOf(redis);
  }

  private keys(email: string, ip: string) {
    return { email: `login-failures:email:${emailKey(email)}`, ip: `login-failures:ip:${ip}` };
  }

  private deviceKey(device: string) {
    return `login-failures:device:${device}`;
  }

  private async refuse(key: string): Promise<never> {
    const retryAfterSeconds =
      (await this.limiter.secondsLeft(key)) ?? this.config.LOGIN_FAILURE_WINDOW_SECONDS;
    throw tooManyRequests(LOGIN_LOCKED_MESSAGE, { retryAfterSeconds });
  }

  /** Throws 429 when locked; otherwise waits the slowdown the failures so far have earned. */
  async beforeAttempt(email: string, ip: string, device: string | null = null): Promise<void> {
    let delay: number;
    if (device) {
      const [byDevice = 0] = await this.limiter.counts(this.deviceKey(device));
      if (deviceLocked(byDevice, this.config)) await this.refuse(this.deviceKey(device));
      delay = slowdownMs({ byEmail: byDevice, byIp: 0 }, this.config);
    } else {
      const keys = this.keys(email, ip);
      const [byEmail = 0, byIp = 0] = await this.limiter.counts(keys.email, keys.ip);
      const locked = lockedBy({ byEmail, byIp }, this.config);
      if (locked) await this.refuse(keys[locked]);
      delay = slowdownMs({ byEmail, byIp }, this.config);
    }
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }

  /** Counts the failure against the device, or else the email and the address; judged before the next attempt. */
  async recordFailure(email: string, ip: string, device: string | null = null): Promise<void> {
    const windowMs = this.config.LOGIN_FAILURE_WINDOW_SECONDS * 1000;
    const count = (key: string, limit: number) =>
      this.limiter.hit({ key, limit, windowMs, windows: 'first-hit' });
    if (device) {
      await count(this.deviceKey(device), this.config.LOGIN_LOCK_AFTER_PER_EMAIL);
      return;
    }
    const keys = this.keys(email, ip);
    await Promise.all([
      count(keys.email, this.config.LOGIN_LOCK_AFTER_PER_EMAIL),
      count(keys.ip, this.config.LOGIN_LOCK_AFTER_PER_IP),
    ]);
  }

  /**
   * A right password clears the count it was judged by: the device's, or the email's for an untrusted
   * client. A trusted sign-in leaves the email's count alone, so whoever is guessing from elsewhere
   * stays locked; the address keeps its count for the window.
   */
  async recordSuccess(email: string, ip: string, device: string | null = null): Promise<void> {
    await this.limiter.clear(device ? this.deviceKey(device) : this.keys(email, ip).email);
  }
}

/** Verification emails per address: at most one per interval and a few per hour. */
export class ResendLimiter {
  private readonly limiter: RedisRateLimiter;

  constructor(
    redis: Redis,
    private readonly config: ResendConfig,
  ) {
    this.limiter = limiterOf(redis);
  }

  private rules(email: string) {
    const id = emailKey(email);
    return {
      interval: {
        key: `verification-sent:recent:${id}`,
        limit: 1,
        windowMs: this.config.RESEND_MIN_INTERVAL_SECONDS * 1000,
        windows: 'first-hit' as const,
      },
      hour: {
        key: `verification-sent:hour:${id}`,
        limit: this.config.RESEND_MAX_PER_HOUR,
        windowMs: HOUR_MS,
        windows: 'first-hit' as const,
      },
    };
  }

  /** Counts a send that happened anyway (the first email at sign-up) so a resend must wait. */
  async noteSent(email: string): Promise<void> {
    const rules = this.rules(email);
    // The interval starts again from this send, as a fresh window.
    await this.limiter.clear(rules.interval.key);
    await Promise.all([this.limiter.hit(rules.interval), this.limiter.hit(rules.hour)]);
  }

  /** Takes one send from the allowance, or throws 429 saying when to try again. */
  async take(email: string): Promise<void> {
    const rules = this.rules(email);
    const interval = await this.limiter.hit(rules.interval);
    if (!interval.allowed)
      throw tooManyRequests(RESEND_TOO_SOON_MESSAGE, { retryAfterSeconds: interval.resetSeconds });
    const hour = await this.limiter.hit(rules.hour);
    if (!hour.allowed)
      throw tooManyRequests(RESEND_TOO_MANY_MESSAGE, { retryAfterSeconds: hour.resetSeconds });
  }
}

/**
 * Reset requests, counted in Redis for every address asked about (registered or not, so a 429 says
 * nothing about who has an account) and for every client address.
 */
export class ResetLimiter {
  private readonly limiter: RedisRateLimiter;

  constructor(
    redis: Redis,
    private readonly config: ResetConfig,
  ) {
    this.limiter = limiterOf(redis);
  }

  async take(email: string, clientAddress: string): Promise<void> {
    const id = emailKey(email);
    const perIp = await this.limiter.hit({
      key: `password-reset:ip:${clientAddress}`,
      limit: this.config.PASSWORD_RESET_MAX_PER_HOUR_PER_IP,
      windowMs: HOUR_MS,
      windows: 'first-hit',
    });
    if (!perIp.allowed)
      throw tooManyRequests(PASSWORD_MESSAGES.resetTooMany, { retryAfterSeconds: perIp.resetSeconds });
    const interval = await this.limiter.hit({
      key: `password-reset:recent:${id}`,
      limit: 1,
      windowMs: this.config.PASSWORD_RESET_MIN_INTERVAL_SECONDS * 1000,
      windows: 'first-hit',
    });
    if (!interval.allowed)
      throw tooManyRequests(PASSWORD_MESSAGES.resetTooSoon, { retryAfterSeconds: interval.resetSeconds });
    const perEmail = await this.limiter.hit({
      key: `password-reset:hour:${id}`,
      limit: this.config.PASSWORD_RESET_MAX_PER_HOUR,
      windowMs: HOUR_MS,
      windows: 'first-hit',
    });
    if (!perEmail.allowed)
      throw tooManyRequests(PASSWORD_MESSAGES.resetTooMany, { retryAfterSeconds: perEmail.resetSeconds });
  }
}
