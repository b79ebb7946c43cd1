import { type TestRedis, leaseRedisDb } from '@lsp/testing';
import { Redis } from 'ioredis';
import {
  AllowanceUnavailableError,
  DIP_EMAIL_REPEAT_WINDOW_MS,
  SharingAllowances,
} from '../src/data/allowances';

jest.setTimeout(30_000);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const quiet = { warn: () => undefined };
const LIMITS = { INVITATIONS_PER_HOUR: 30, TELEMETRY_PER_MINUTE: 20 };

/**
 * Sharing's allowance of invitation emails: at most INVITATIONS_PER_HOUR in any 60 minutes (a sliding
 * window), one email per address per DIP per day, and no email at all while Redis does not answer.
 * The share routes' use of it: invitation-relay.int.test.ts.
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

  it('lets no more than the limit out in any 60 minutes, also around the turn of the hour', async () => {
    // Two minutes around the hour: a clock-hour window let 30 out before it and 30 more after.
    const beforeTheHour = Date.UTC(2026, 10, 26, 10, 59);
    for (let i = 0; i < 30; i += 1)
      expect(await allowances.spendInvitation('u-hour', beforeTheHour)).toEqual({ allowed: true });
    const afterTheHour = beforeTheHour + 2 * MINUTE;
    expect(await allowances.spendInvitation('u-hour', afterTheHour)).toEqual({
      allowed: false,
      // The first 30 leave the window 60 minutes after they were sent: 58 minutes from now.
      retryAfterSeconds: 58 * 60,
    });
    expect((await allowances.spendInvitation('u-hour', beforeTheHour + HOUR - 1)).allowed).toBe(false);
    expect((await allowances.spendInvitation('u-hour', beforeTheHour + HOUR + 1)).allowed).toBe(true);
  });

  it('spends a DIP share all or none, one per address not emailed about that DIP today', async () => {
    const now = Date.UTC(2026, 10, 26, 12, 0);
    const first = await allowances.spendDipShareEmails('u-dip', 'dip-1', ['a@x.co', 'b@x.co'], now);
    expect(first).toEqual({ allowed: true, toEmail: new Set(['a@x.co', 'b@x.co']) });
    // a@x.co again: free, and not emailed; c@x.co: one email.
    const again = await allowances.spendDipShareEmails('u-dip', 'dip-1', ['a@x.co', 'c@x.co'], now + 1);
    expect(again).toEqual({ allowed: true, toEmail: new Set(['c@x.co']) });
    // The same address on another DIP is a new email.
    const otherDip = await allowances.spendDipShareEmails('u-dip', 'dip-2', ['a@x.co'], now + 2);
    expect(otherDip).toEqual({ allowed: true, toEmail: new Set(['a@x.co']) });
    // 4 spent of 30: 27 more is one too many, refused whole and nothing marked.
    const many = Array.from({ length: 27 }, (_, i) => `n${i}@x.co`);
    expect(await allowances.spendDipShareEmails('u-dip', 'dip-1', many, now + 3)).toEqual({
      allowed: false,
      retryAfterSeconds: 60 * 60,
    });
    expect(await allowances.spendDipShareEmails('u-dip', 'dip-1', many.slice(0, 26), now + 4)).toEqual({
      allowed: true,
      toEmail: new Set(many.slice(0, 26)),
    });
    const markers = await r.redis.keys('sharing:dip-emailed:dip-1:*');
    expect(markers).toHaveLength(2 + 1 + 26);
    const ttl = await r.redis.pttl(markers[0]!);
    expect(ttl).toBeGreaterThan(DIP_EMAIL_REPEAT_WINDOW_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(DIP_EMAIL_REPEAT_WINDOW_MS);
  });

  it('forgets the markers of a share that was not recorded, so sharing again emails', async () => {
    const now = Date.UTC(2026, 10, 26, 13, 0);
    await allowances.spendDipShareEmails('u-forget', 'dip-9', ['a@x.co'], now);
    await allowances.forgetDipShareEmails('dip-9', ['a@x.co']);
    expect(await allowances.spendDipShareEmails('u-forget', 'dip-9', ['a@x.co'], now + 1)).toEqual({
      allowed: true,
      toEmail: new Set(['a@x.co']),
    });
  });

  it('sends no invitation while Redis does not answer; telemetry is let through and logged', async () => {
    // A client whose connection has ended, as when Redis goes away: every command fails at once.
    const dead = new Redis({ lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    dead.disconnect();
    try {
      const warnings: unknown[] = [];
      const blind = new SharingAllowances(dead, { warn: (o: unknown) => warnings.push(o) }, LIMITS);
      await expect(blind.spendInvitation('u-3')).rejects.toBeInstanceOf(AllowanceUnavailableError);
      await expect(blind.spendDipShareEmails('u-3', 'dip-1', ['a@x.co'])).rejects.toBeInstanceOf(
        AllowanceUnavailableError,
      );
      expect(await blind.telemetryAllowed('u:u-3')).toBe(true);
      expect(await blind.firstSighting('fingerprint')).toBe(true);
      expect(warnings).toHaveLength(1);
    } finally {
      dead.disconnect();
    }
  });
});
