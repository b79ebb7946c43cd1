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
