import { Redis } from 'ioredis';
import { RedisRateLimiter } from '../src/rate-limit';
import { REDIS_URL, deleteKeysWithPrefix, uniqueId } from './events-helpers';

jest.setTimeout(30_000);

const HOUR = 3600_000;

describe('the Redis rate limiter', () => {
  const prefix = `test-rate-limit:${uniqueId()}:`;
  let redis: Redis;
  let limiter: RedisRateLimiter;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
    limiter = new RedisRateLimiter(redis);
  });
  afterAll(async () => {
    await deleteKeysWithPrefix(REDIS_URL, prefix);
    redis.disconnect();
  });

  const clockHourly = (name: string, limit: number) => ({
    key: `${prefix}${name}`,
    limit,
    windowMs: HOUR,
    windows: 'clock' as const,
  });

  it('counts in a key named after its clock window, with the expiry set in the same step as the first count', async () => {
    const now = Date.UTC(2026, 10, 26, 10, 15);
    const window = Math.floor(now / HOUR);
    const first = await limiter.hit(clockHourly('u-1', 2), now);
    expect(first).toEqual({
      allowed: true,
      count: 1,
      limit: 2,
      remaining: 1,
      resetSeconds: 45 * 60,
      counted: true,
    });
    expect(await redis.get(`${prefix}u-1:${window}`)).toBe('1');
    const ttl = await redis.pttl(`${prefix}u-1:${window}`);
    expect(ttl).toBeGreaterThan(HOUR - 5000);
    expect(ttl).toBeLessThanOrEqual(HOUR);
    // The un-windowed key is never written.
    expect(await redis.exists(`${prefix}u-1`)).toBe(0);
  });

  it('refuses past the limit until the clock window ends, saying how long to wait', async () => {
    const now = Date.UTC(2026, 10, 26, 11, 45);
    for (let i = 0; i < 2; i += 1) expect((await limiter.hit(clockHourly('u-2', 2), now)).allowed).toBe(true);
    const refused = await limiter.hit(clockHourly('u-2', 2), now);
    expect(refused).toMatchObject({ allowed: false, count: 3, remaining: 0 });
    // 15 minutes to the end of this hour's window.
    expect(refused.resetSeconds).toBe(15 * 60);
    expect((await limiter.hit(clockHourly('u-2', 2), now + 15 * 60_000)).allowed).toBe(true);
  });

  describe('with a lease', () => {
    const leased = (name: string, limit: number, lease: number) => ({ ...clockHourly(name, limit), lease });
    const roundTrips = (on: Redis) =>
      jest.spyOn(
        on as unknown as { rateLimitCountInWindow: () => Promise<unknown> },
        'rateLimitCountInWindow',
      );

    it('takes that many counts in one round trip and judges the next hits itself', async () => {
      const own = new Redis(REDIS_URL);
      try {
        const leasing = new RedisRateLimiter(own);
        const trips = roundTrips(own);
        const now = Date.UTC(2026, 10, 26, 12, 30);
        const verdicts = [];
        for (let i = 0; i < 10; i += 1) verdicts.push(await leasing.hit(leased('l-1', 7, 5), now));
        expect(verdicts.map((v) => [v.count, v.allowed, v.remaining])).toEqual([
          [1, true, 6],
          [2, true, 5],
          [3, true, 4],
          [4, true, 3],
          [5, true, 2],
          [6, true, 1],
          [7, true, 0],
          [8, false, 0],
          [9, false, 0],
          [10, false, 0],
        ]);
        expect(trips).toHaveBeenCalledTimes(2);
        expect(await own.get(`${prefix}l-1:${Math.floor(now / HOUR)}`)).toBe('10');
        expect(verdicts[9].resetSeconds).toBe(30 * 60);
        // The next window is a new count, and a new lease.
        expect(await leasing.hit(leased('l-1', 7, 5), now + 30 * 60_000)).toMatchObject({
          count: 1,
          allowed: true,
        });
        expect(trips).toHaveBeenCalledTimes(3);
      } finally {
        own.disconnect();
      }
    });

    it('lets two instances together pass no more than the limit', async () => {
      const connections = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
      try {
        const [a, b] = connections.map((c) => new RedisRateLimiter(c));
        const now = Date.UTC(2026, 10, 26, 13, 5);
        let allowed = 0;
        for (let i = 0; i < 20; i += 1) {
          const verdict = await (i % 2 === 0 ? a : b).hit(leased('l-2', 7, 5), now);
          if (verdict.allowed) allowed += 1;
        }
        expect(allowed).toBe(7);
      } finally {
        for (const c of connections) c.disconnect();
      }
    });
  });

  it('a counter that lost its expiry blocks only to the end of its window, and gets its expiry back', async () => {
    const now = Date.UTC(2026, 10, 26, 12, 30);
    const key = `${prefix}u-3:${Math.floor(now / HOUR)}`;
    // As if the expiry had been lost: a full counter with no TTL.
    await redis.set(key, '99');
    expect((await limiter.hit(clockHourly('u-3', 5), now)).allowed).toBe(false);
    expect(await redis.pttl(key)).toBeGreaterThan(0);
    expect((await limiter.hit(clockHourly('u-3', 5), now + HOUR)).allowed).toBe(true);
  });

  it('opens a first-hit window with the first count, under the key as named, and never pushes its end back', async () => {
    const rule = { key: `${prefix}cool-down`, limit: 1, windowMs: 60_000, windows: 'first-hit' as const };
    expect(await limiter.hit(rule)).toMatchObject({ allowed: true, count: 1 });
    await redis.pexpire(rule.key, 20_000);
    const refused = await limiter.hit(rule);
    expect(refused).toMatchObject({ allowed: false, count: 2, remaining: 0 });
    expect(refused.resetSeconds).toBeLessThanOrEqual(20);
    expect(await redis.pttl(rule.key)).toBeLessThanOrEqual(20_000);
    expect(await limiter.counts(rule.key, `${prefix}never-hit`)).toEqual([2, 0]);
    expect(await limiter.secondsLeft(rule.key)).toBeLessThanOrEqual(20);
    await limiter.clear(rule.key);
    expect(await limiter.secondsLeft(rule.key)).toBeNull();
    expect((await limiter.hit(rule)).allowed).toBe(true);
  });

  it('a first-hit counter that lost its expiry gets a whole window again', async () => {
    const rule = { key: `${prefix}lost`, limit: 3, windowMs: HOUR, windows: 'first-hit' as const };
    await redis.set(rule.key, '7');
    const refused = await limiter.hit(rule);
    expect(refused.allowed).toBe(false);
    expect(refused.resetSeconds).toBe(3600);
    expect(await redis.pttl(rule.key)).toBeGreaterThan(HOUR - 5000);
  });

  describe('when Redis does not answer', () => {
    const broken = { defineCommand: () => undefined } as never;
    const rule = { key: 'k', limit: 1, windowMs: HOUR, windows: 'clock' as const };

    it('lets the hit through uncounted, with the reason, when told to', async () => {
      const answer = await new RedisRateLimiter(broken, { allowWhenUnavailable: true }).hit(rule);
      expect(answer).toMatchObject({ allowed: true, counted: false });
      expect(answer.storeError).toBeInstanceOf(Error);
    });

    it('otherwise passes the failure on', async () => {
      await expect(new RedisRateLimiter(broken).hit(rule)).rejects.toThrow();
    });
  });
});
