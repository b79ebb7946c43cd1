import { createHash } from 'node:crypto';
import { PASSWORD_MESSAGES } from '@lsp/contracts';
import { tooManyRequests } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import type { IdentityConfig } from '../config';

const emailKey = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 32);

export const LOGIN_LOCKED_MESSAGE = 'Too many sign-in attempts. Please wait a few minutes and try again.';
export const RESEND_TOO_SOON_MESSAGE =
  'A verification email was sent very recently. Please wait a minute before asking for another.';
export const RESEND_TOO_MANY_MESSAGE =
  'Too many verification emails were requested for this address. Please try again in an hour.';

/**
 * Brute-force protection for sign-in, counted in Redis so every identity instance agrees. Failures
 * are counted per email (registered or not, so the answer never reveals which) and per client
 * address. Past a first threshold each attempt is answered more slowly; past the second it is
 * refused with 429 until the window has passed, even with the right password.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly config: Pick<
      IdentityConfig,
      | 'LOGIN_FAILURE_WINDOW_SECONDS'
      | 'LOGIN_SLOWDOWN_AFTER'
      | 'LOGIN_SLOWDOWN_STEP_MS'
      | 'LOGIN_SLOWDOWN_MAX_MS'
      | 'LOGIN_LOCK_AFTER_PER_EMAIL'
      | 'LOGIN_LOCK_AFTER_PER_IP'
    >,
  ) {}

  private keys(email: string, ip: string) {
    return { email: `login-failures:email:${emailKey(email)}`, ip: `login-failures:ip:${ip}` };
  }

  /** Throws 429 when locked; otherwise waits the slowdown the failures so far have earned. */
  async beforeAttempt(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const [byEmail, byIp] = (await this.redis.mget(keys.email, keys.ip)).map((v) => Number(v ?? 0));
    const lockedKey =
      byEmail >= this.config.LOGIN_LOCK_AFTER_PER_EMAIL
        ? keys.email
        : byIp >= this.config.LOGIN_LOCK_AFTER_PER_IP
          ? keys.ip
          : null;
    if (lockedKey) {
      const ttl = await this.redis.ttl(lockedKey);
      const retryAfterSeconds = ttl > 0 ? ttl : this.config.LOGIN_FAILURE_WINDOW_SECONDS;
      throw tooManyRequests(LOGIN_LOCKED_MESSAGE, { retryAfterSeconds });
    }
    const over = Math.max(byEmail, Math.floor(byIp / 3)) - this.config.LOGIN_SLOWDOWN_AFTER + 1;
    if (over > 0) {
      const delay = Math.min(this.config.LOGIN_SLOWDOWN_MAX_MS, over * this.config.LOGIN_SLOWDOWN_STEP_MS);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const window = this.config.LOGIN_FAILURE_WINDOW_SECONDS;
    await this.redis
      .multi()
      .incr(keys.email)
      .expire(keys.email, window, 'NX')
      .incr(keys.ip)
      .expire(keys.ip, window, 'NX')
      .exec();
  }

  /** A right password clears the email's count; the address keeps its count for the window. */
  async recordSuccess(email: string, ip: string): Promise<void> {
    await this.redis.del(this.keys(email, ip).email);
  }
}

/** Verification emails per address: at most one per interval and a few per hour. */
export class ResendLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly config: Pick<IdentityConfig, 'RESEND_MIN_INTERVAL_SECONDS' | 'RESEND_MAX_PER_HOUR'>,
  ) {}

  /** Counts a send that happened anyway (the first email at sign-up) so a resend must wait. */
  async noteSent(email: string): Promise<void> {
    const id = emailKey(email);
    await this.redis
      .multi()
      .set(`verification-sent:recent:${id}`, '1', 'EX', this.config.RESEND_MIN_INTERVAL_SECONDS)
      .incr(`verification-sent:hour:${id}`)
      .expire(`verification-sent:hour:${id}`, 3600, 'NX')
      .exec();
  }

  /** Takes one send from the allowance, or throws 429 saying when to try again. */
  async take(email: string): Promise<void> {
    const id = emailKey(email);
    const recentKey = `verification-sent:recent:${id}`;
    const hourKey = `verification-sent:hour:${id}`;
    const first = await this.redis.set(recentKey, '1', 'EX', this.config.RESEND_MIN_INTERVAL_SECONDS, 'NX');
    if (first !== 'OK') {
      throw tooManyRequests(RESEND_TOO_SOON_MESSAGE, {
        retryAfterSeconds: Math.max(1, await this.redis.ttl(recentKey)),
      });
    }
    const [[, count]] = (await this.redis.multi().incr(hourKey).expire(hourKey, 3600, 'NX').exec()) as [
      [Error | null, number],
    ];
    if (count > this.config.RESEND_MAX_PER_HOUR) {
      throw tooManyRequests(RESEND_TOO_MANY_MESSAGE, {
        retryAfterSeconds: Math.max(1, await this.redis.ttl(hourKey)),
      });
    }
  }
}

export type ResetConfig = Pick<
  IdentityConfig,
  | 'PUBLIC_URL'
  | 'PASSWORD_HASH_COST'
  | 'PASSWORD_RESET_TTL_MINUTES'
  | 'PASSWORD_RESET_MIN_INTERVAL_SECONDS'
  | 'PASSWORD_RESET_MAX_PER_HOUR'
  | 'PASSWORD_RESET_MAX_PER_HOUR_PER_IP'
>;

/**
 * Reset requests, counted in Redis for every address asked about (registered or not, so a 429 says
 * nothing about who has an account) and for every client address.
 */
export class ResetLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly config: ResetConfig,
  ) {}

  async take(email: string, clientAddress: string): Promise<void> {
    const id = emailKey(email);
    const ipKey = `password-reset:ip:${clientAddress}`;
    const [[, perIp]] = (await this.redis.multi().incr(ipKey).expire(ipKey, 3600, 'NX').exec()) as [
      [Error | null, number],
    ];
    if (perIp > this.config.PASSWORD_RESET_MAX_PER_HOUR_PER_IP) {
      throw tooManyRequests(PASSWORD_MESSAGES.resetTooMany, {
        retryAfterSeconds: Math.max(1, await this.redis.ttl(ipKey)),
      });
    }
    const recentKey = `password-reset:recent:${id}`;
    const first = await this.redis.set(
      recentKey,
      '1',
      'EX',
      this.config.PASSWORD_RESET_MIN_INTERVAL_SECONDS,
      'NX',
    );
    if (first !== 'OK') {
      throw tooManyRequests(PASSWORD_MESSAGES.resetTooSoon, {
        retryAfterSeconds: Math.max(1, await this.redis.ttl(recentKey)),
      });
    }
    const hourKey = `password-reset:hour:${id}`;
    const [[, perEmail]] = (await this.redis.multi().incr(hourKey).expire(hourKey, 3600, 'NX').exec()) as [
      [Error | null, number],
    ];
    if (perEmail > this.config.PASSWORD_RESET_MAX_PER_HOUR) {
      throw tooManyRequests(PASSWORD_MESSAGES.resetTooMany, {
        retryAfterSeconds: Math.max(1, await this.redis.ttl(hourKey)),
      });
    }
  }
}
