import type { Redis } from 'ioredis';

/**
 * Counts one hit in the key and gives the key the window's expiry if it has none, in one step (a Lua
 * script runs atomically in Redis), then answers the count and the milliseconds the key has left.
 * Counting and expiring as two calls could lose the expiry (a dropped connection between them) and
 * leave a counter that never resets: one lost PEXPIRE once locked a user out for good. The expiry is
 * set with the first count only, so later hits never push the window's end back.
 */
const COUNT_IN_WINDOW = `
local by = tonumber(ARGV[2]) or 1
local count = redis.call('INCRBY', KEYS[1], by)
if count == by then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

const COMMAND = 'rateLimitCountInWindow';

type CountingRedis = Redis & {
  [COMMAND](key: string, windowMs: number, by: number): Promise<[number, number]>;
};

export interface RateLimitRule {
  /** The counter's name; with `clock` windows the window's number is appended to it. */
  key: string;
  /** Hits allowed in one window; the next one is refused. */
  limit: number;
  windowMs: number;
  /**
   * `clock`: windows follow one another on the clock and each has its own key (`{key}:{window}`), so
   * even a counter that somehow kept no expiry stops counting when its window ends. `first-hit`: the
   * window opens with the first hit counted in the key as named (a cool-down, 'so many an hour from
   * the first').
   */
  windows: 'clock' | 'first-hit';
  /**
   * `clock` windows only: hits this process takes from Redis at a time (default 1). It then judges
   * the next ones itself, without a round trip, until it has used them or the window ends. Every hit
   * is still counted before it is allowed, so all instances together never pass the limit; an
   * instance may hold up to `lease - 1` hits it does not use, so the others can be refused that much
   * early, and `remaining` is this process's view. For limits with a large allowance, where that
   * slack is nothing and a round trip per request is not.
   */
  lease?: number;
}

export interface RateLimitVerdict {
  allowed: boolean;
  /** Hits counted in this window, this one included. */
  count: number;
  limit: number;
  /** Hits left in this window (never below zero). */
  remaining: number;
  /** Whole seconds until the window ends and the count starts again (at least 1). */
  resetSeconds: number;
  /** False when Redis did not answer and the hit was let through uncounted (`allowWhenUnavailable`). */
  counted: boolean;
  /** Why Redis did not answer, for the caller to log with its own context. */
  storeError?: unknown;
}

export interface RateLimiterOptions {
  /**
   * True: a Redis that does not answer lets the hit through, uncounted, for limits that protect the
   * services, which must not take the site down with Redis. False (the default): the error reaches
   * the caller, which then refuses (a sign-in must not be guessable while the limiter is blind).
   */
  allowWhenUnavailable?: boolean;
}

/**
 * Fixed-window counters in Redis, shared by every instance of a service, so all of them count against
 * one allowance. Each caller names its own keys, limits and windows; the verdict says whether the hit
 * is within the allowance and when the window ends, and the caller words the refusal.
 */
/** Counts a process took from a clock window's counter and has not used yet. */
interface Lease {
  window: number;
  /** The count the next hit gets. */
  next: number;
  /** The last count taken. */
  last: number;
}

/** Leases kept at most; past it, those of ended windows are dropped (one per client address). */
const MAX_LEASES = 10_000;

export class RedisRateLimiter {
  private readonly redis: CountingRedis;
  private readonly leases = new Map<string, Lease>();

  constructor(
    redis: Redis,
    private readonly options: RateLimiterOptions = {},
  ) {
    this.redis = redis as CountingRedis;
    // Registered once per connection, so ioredis sends the script's SHA (EVALSHA) rather than the
    // script on every hit, and the script again only when a restarted Redis no longer knows it.
    if (typeof this.redis[COMMAND] !== 'function')
      redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: COUNT_IN_WINDOW });
  }

  /** Counts one hit against the rule and judges it. */
  async hit(rule: RateLimitRule, now: number = Date.now()): Promise<RateLimitVerdict> {
    const window = Math.floor(now / rule.windowMs);
    const key = rule.windows === 'clock' ? `${rule.key}:${window}` : rule.key;
    const lease = rule.windows === 'clock' ? Math.max(1, Math.floor(rule.lease ?? 1)) : 1;
    const held = lease > 1 ? this.leases.get(rule.key) : undefined;
    if (held && held.window === window && held.next <= held.last)
      return this.judge(rule, held.next++, (window + 1) * rule.windowMs - now, window, now);
    let count: number;
    let ttl: number;
    try {
      [count, ttl] = (await this.redis[COMMAND](key, rule.windowMs, lease)).map(Number) as [number, number];
    } catch (err) {
      if (!this.options.allowWhenUnavailable) throw err;
      return {
        allowed: true,
        count: 0,
        limit: rule.limit,
        remaining: rule.limit,
        resetSeconds: 1,
        counted: false,
        storeError: err,
      };
    }
    if (lease > 1) {
      // This hit has the first of the counts taken; the process keeps the rest.
      count -= lease - 1;
      this.keepLease(rule.key, { window, next: count + 1, last: count + lease - 1 });
    }
    return this.judge(rule, count, ttl > 0 ? ttl : rule.windowMs, window, now);
  }

  private judge(rule: RateLimitRule, count: number, leftMs: number, window: number, now: number) {
    // A clock window's end bounds the wait, whatever the key's own expiry says.
    const left = rule.windows === 'clock' ? Math.min(leftMs, (window + 1) * rule.windowMs - now) : leftMs;
    return {
      allowed: count <= rule.limit,
      count,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      resetSeconds: Math.max(1, Math.ceil(left / 1000)),
      counted: true,
    };
  }

  private keepLease(name: string, lease: Lease): void {
    if (this.leases.size >= MAX_LEASES) {
      for (const [other, kept] of this.leases) if (kept.window < lease.window) this.leases.delete(other);
      // Every lease is of this window (that many addresses in one window): start again.
      if (this.leases.size >= MAX_LEASES) this.leases.clear();
    }
    this.leases.set(name, lease);
  }

  /** The hits counted so far under each `first-hit` key, without counting one (0 for none). */
  async counts(...keys: string[]): Promise<number[]> {
    return (await this.redis.mget(...keys)).map((value) => Number(value ?? 0));
  }

  /** Whole seconds until the `first-hit` key's window ends; null when it holds no count. */
  async secondsLeft(key: string): Promise<number | null> {
    const ttl = await this.redis.ttl(key);
    return ttl > 0 ? ttl : null;
  }

  /** Forgets the key's count: its next hit opens a new window. */
  async clear(key: string): Promise<void> {
    await this.redis.del(key);
  }
}
