import { type TestRedis, leaseRedisDb } from '@lsp/testing';
import { withinAllowance } from '../src/domain/rate-limit';

jest.setTimeout(30_000);

const HOUR = 3600_000;
const quiet = { warn: () => undefined };

/** Issue 24 item 2: the invitations allowance can no longer lock a user out for good. */
describe('sharing’s invitation allowance', () => {
  let r: TestRedis;

  beforeAll(async () => {
    r = await leaseRedisDb();
  });
  afterAll(async () => {
    await r?.release();
  });

  it('counts in a key named after its window, with the expiry set in the same step as the first count', async () => {
    const now = Date.UTC(2026, 10, 26, 10, 15);
    const window = Math.floor(now / HOUR);
    const first = await withinAllowance(r.redis, quiet, 'sharing:invitations:u-1', 2, HOUR, now);
    expect(first).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await r.redis.get(`sharing:invitations:u-1:${window}`)).toBe('1');
    const ttl = await r.redis.pttl(`sharing:invitations:u-1:${window}`);
    expect(ttl).toBeGreaterThan(HOUR - 5000);
    expect(ttl).toBeLessThanOrEqual(HOUR);
    // The un-windowed key of the old limiter is never written.
    expect(await r.redis.exists('sharing:invitations:u-1')).toBe(0);
  });

  it('refuses past the limit until the window ends, saying how long to wait', async () => {
    const now = Date.UTC(2026, 10, 26, 11, 45);
    for (let i = 0; i < 2; i += 1)
      expect((await withinAllowance(r.redis, quiet, 'sharing:invitations:u-2', 2, HOUR, now)).allowed).toBe(
        true,
      );
    const refused = await withinAllowance(r.redis, quiet, 'sharing:invitations:u-2', 2, HOUR, now);
    expect(refused.allowed).toBe(false);
    // 15 minutes to the end of this hour's window.
    expect(refused.retryAfterSeconds).toBe(15 * 60);
    const nextWindow = await withinAllowance(
      r.redis,
      quiet,
      'sharing:invitations:u-2',
      2,
      HOUR,
      now + 15 * 60_000,
    );
    expect(nextWindow.allowed).toBe(true);
  });

  it('a counter that lost its expiry blocks only to the end of its window, and gets its expiry back', async () => {
    const now = Date.UTC(2026, 10, 26, 12, 30);
    const key = `sharing:invitations:u-3:${Math.floor(now / HOUR)}`;
    // As if the expiry had been lost: a full counter with no TTL.
    await r.redis.set(key, '99');
    const refused = await withinAllowance(r.redis, quiet, 'sharing:invitations:u-3', 5, HOUR, now);
    expect(refused.allowed).toBe(false);
    expect(await r.redis.pttl(key)).toBeGreaterThan(0);
    expect(
      (await withinAllowance(r.redis, quiet, 'sharing:invitations:u-3', 5, HOUR, now + HOUR)).allowed,
    ).toBe(true);
  });

  it('lets the call through when Redis does not answer', async () => {
    const broken = { defineCommand: () => undefined } as never;
    const warnings: unknown[] = [];
    const answer = await withinAllowance(broken, { warn: (o: unknown) => warnings.push(o) }, 'k', 1, HOUR);
    expect(answer).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(warnings).toHaveLength(1);
  });
});
