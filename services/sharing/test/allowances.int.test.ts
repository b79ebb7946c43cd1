import { type TestRedis, leaseRedisDb } from '@lsp/testing';
import { SharingAllowances } from '../src/data/allowances';

jest.setTimeout(30_000);

const HOUR = 3600_000;
const quiet = { warn: () => undefined };
const LIMITS = { INVITATIONS_PER_HOUR: 2, TELEMETRY_PER_MINUTE: 20 };

/**
 * Issue 24 item 2: the invitations allowance can no longer lock a user out for good. The window rules
 * themselves are service-kit's (packages/service-kit/test/rate-limit.int.test.ts); here, sharing's keys
 * and answers.
 */
describe('sharing’s invitation allowance', () => {
  let r: TestRedis;
  let allowances: SharingAllowances;

  beforeAll(async () => {
    r = await leaseRedisDb();
    allowances = new SharingAllowances(r.redis, quiet, LIMITS);
  });
  afterAll(async () => {
    await r?.release();
  });

  it('counts under sharing:invitations:<userId>:<hour window>, never the un-windowed key', async () => {
    const now = Date.UTC(2026, 10, 26, 10, 15);
    const window = Math.floor(now / HOUR);
    expect(await allowances.spendInvitation('u-1', now)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await r.redis.get(`sharing:invitations:u-1:${window}`)).toBe('1');
    expect(await r.redis.pttl(`sharing:invitations:u-1:${window}`)).toBeGreaterThan(HOUR - 5000);
    expect(await r.redis.exists('sharing:invitations:u-1')).toBe(0);
  });

  it('refuses past the hourly limit, saying how long to wait for the next window', async () => {
    const now = Date.UTC(2026, 10, 26, 11, 45);
    for (let i = 0; i < 2; i += 1) expect((await allowances.spendInvitation('u-2', now)).allowed).toBe(true);
    // 15 minutes to the end of this hour's window.
    expect(await allowances.spendInvitation('u-2', now)).toEqual({
      allowed: false,
      retryAfterSeconds: 15 * 60,
    });
    expect((await allowances.spendInvitation('u-2', now + 15 * 60_000)).allowed).toBe(true);
  });

  it('lets the call through when Redis does not answer, and logs it', async () => {
    const broken = { defineCommand: () => undefined, set: async () => Promise.reject(new Error('down')) };
    const warnings: unknown[] = [];
    const blind = new SharingAllowances(broken as never, { warn: (o: unknown) => warnings.push(o) }, LIMITS);
    expect(await blind.spendInvitation('u-3')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await blind.telemetryAllowed('u:u-3')).toBe(true);
    expect(await blind.firstSighting('fingerprint')).toBe(true);
    expect(warnings).toHaveLength(2);
  });
});
