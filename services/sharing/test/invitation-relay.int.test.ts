import { SHARING_MESSAGES } from '@lsp/contracts';
import { ServiceMetrics, identityHeaders, type CallerIdentity } from '@lsp/service-kit';
import { TEST_SECRETS, silentLogger, useHarness } from '@lsp/testing';
import { Redis } from 'ioredis';
import { sharingEmailJobFor } from '../../notifications/src/events/consumed';
import { buildApp } from '../src/app';
import { sharingConfigSchema } from '../src/config';
import { sharingRepositories } from '../src/data/repositories';
import { SHARE_LINK_SECRET, projectedDip, startSharingHarness } from './sharing-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(90_000);

const strangers = (batch: number) =>
  Array.from({ length: 20 }, (_, i) => `stranger-${batch}-${i}-${Date.now()}@example.net`);

/**
 * Sharing is nobody's mail relay: DIP shares spend the owner's allowance of invitation emails with
 * deal shares and referrals, an address hears about a DIP at most once a day, the sender's name
 * cannot carry control or text-direction characters into a subject, and nothing is sent while the
 * allowance cannot be counted.
 */
describe('invitation emails cannot be relayed', () => {
  // The default allowance: 30 invitation emails in any 60 minutes.
  const h = useHarness(() => startSharingHarness({ INVITATIONS_PER_HOUR: '30' }));
  beforeEach(() => {
    h.clock.now = new Date();
  });

  /** The share.created events of a DIP that ask notifications for an email. */
  async function emailsAskedFor(dipId: string) {
    const created = (await h.outboxEvents('share.created')).filter((e) => e.data.dipId === dipId);
    return created.filter((e) =>
      sharingEmailJobFor({ ...e, data: e.data } as unknown as Parameters<typeof sharingEmailJobFor>[0]),
    );
  }

  it('stops a scripted relay to 80 strangers at the allowance (four requests of twenty)', async () => {
    const owner = await h.signedIn({ name: 'Rae Relay' });
    const dip = await h.createDip(owner.user);
    const statuses: number[] = [];
    for (let batch = 0; batch < 4; batch += 1) {
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        recipients: strangers(batch),
        message: 'Cheap loans',
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.json()).toMatchObject({ error: SHARING_MESSAGES.tooManyInvitations });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    // 20 fit in the allowance of 30; each later 20 would pass it and is refused whole.
    expect(statuses).toEqual([201, 429, 429, 429]);
    expect(await emailsAskedFor(dip.dipId)).toHaveLength(20);
    expect(await h.collections.dipShares.countDocuments({ dipId: dip.dipId })).toBe(20);

    // The same allowance covers referrals: 10 left, then refused.
    for (let i = 0; i < 10; i += 1) {
      const res = await owner.client.post('/api/referrals', {
        referrerName: 'Rae',
        referralEmail: `friend-${i}@example.net`,
      });
      expect(res.status).toBe(201);
    }
    const refused = await owner.client.post('/api/referrals', {
      referrerName: 'Rae',
      referralEmail: 'one-more@example.net',
    });
    expect(refused.status).toBe(429);
    // Another owner has an allowance of their own.
    const other = await h.signedIn();
    const otherDip = await h.createDip(other.user);
    const res = await other.client.post(`/api/online-dip/${otherDip.dipId}/share`, {
      recipients: strangers(9),
    });
    expect(res.status).toBe(201);
  });

  it('records a repeat share within a day and says so, without a second email', async () => {
    const owner = await h.signedIn({ name: 'Ola Owner' });
    const dip = await h.createDip(owner.user);
    const first = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
      recipients: ['agent@example.co.uk'],
      message: 'First look',
    });
    expect(first.status).toBe(201);
    expect(first.json()).toMatchObject({
      sent: 1,
      results: [{ email: 'agent@example.co.uk', success: true, emailed: true }],
    });
    for (let i = 0; i < 5; i += 1) {
      const again = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        recipients: ['Agent@Example.co.uk', `new-${i}@example.co.uk`],
        message: `Look ${i}`,
      });
      expect(again.status).toBe(201);
      const body = again.json();
      expect(body.sent).toBe(1);
      expect(body.results).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            email: 'agent@example.co.uk',
            success: true,
            emailed: false,
            note: SHARING_MESSAGES.alreadyEmailedToday,
          }),
          expect.objectContaining({ email: `new-${i}@example.co.uk`, emailed: true }),
        ]),
      );
    }
    // Six shares to the agent: one email; the share itself is kept up to date.
    const asked = await emailsAskedFor(dip.dipId);
    expect(asked.filter((e) => e.data.recipientEmail === 'agent@example.co.uk')).toHaveLength(1);
    expect(asked).toHaveLength(6);
    const entry = await h.collections.recipientShares.findOne({
      dipId: dip.dipId,
      email: 'agent@example.co.uk',
    });
    expect(entry?.message).toBe('Look 4');
    // Only addresses actually emailed spend the allowance: 6 of 30.
    const redis = new Redis(h.redisUrl);
    try {
      expect(await redis.zcard(`sharing:invitation-log:${owner.user.userId}`)).toBe(6);
    } finally {
      redis.disconnect();
    }
  });

  it('refuses a referrer name with a control character or U+202E with a 400 in the form’s words', async () => {
    const referrer = await h.signedIn();
    for (const referrerName of ['Rob\u0007 Smith', 'Rob \u202Efdp.exe', 'Rob\r\nBcc: x@example.net']) {
      const res = await referrer.client.post('/api/referrals', {
        referrerName,
        referralEmail: 'friend@example.co.uk',
      });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({
        error: SHARING_MESSAGES.referrerNameControlCharacters,
        fields: { referrerName: SHARING_MESSAGES.referrerNameControlCharacters },
      });
    }
    expect(await h.collections.referrals.countDocuments({ referrerUserId: referrer.user.userId })).toBe(0);
    const ok = await referrer.client.post('/api/referrals', {
      referrerName: 'Zoë O’Brien-Łukasz',
      referralEmail: 'friend@example.co.uk',
    });
    expect(ok.status).toBe(201);
  });

  describe('while Redis does not answer', () => {
    let app: ReturnType<typeof buildApp>;
    let deadRedis: Redis;

    beforeAll(async () => {
      // A client whose connection has ended, as when Redis goes away: every command fails at once.
      deadRedis = new Redis({ lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
      deadRedis.disconnect();
      app = buildApp({
        config: sharingConfigSchema.parse({ ...TEST_SECRETS, SHARE_LINK_SECRET, SEARCH_URL: h.searchUrl }),
        logger: silentLogger(),
        metrics: new ServiceMetrics('sharing'),
        healthChecks: [],
        mongo: h.mongo,
        redis: deadRedis,
        repositories: sharingRepositories(h.mongo),
        outbox: h.outbox,
        askDip: (dipId) => projectedDip(h.collections, dipId),
      });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      deadRedis?.disconnect();
    });

    const post = (user: CallerIdentity, url: string, payload: object) =>
      app.inject({
        method: 'POST',
        url,
        headers: {
          ...identityHeaders(user, TEST_SECRETS.INTERNAL_SECRET),
          'content-type': 'application/json',
        },
        payload,
      });

    it('sends nothing: a DIP share answers 503 with the Copy Link fallback, deal shares and referrals 503', async () => {
      const owner = await h.signedIn({ name: 'Dee Down' });
      const dip = await h.createDip(owner.user);
      const share = await post(owner.user, `/api/online-dip/${dip.dipId}/share`, {
        recipients: ['agent@example.co.uk'],
      });
      expect(share.statusCode).toBe(503);
      expect(share.json()).toMatchObject({
        success: false,
        fallback: true,
        error: SHARING_MESSAGES.emailUnavailable,
        shareUrl: expect.stringContaining(`/shared/${dip.shareSlug}`),
      });
      expect(await emailsAskedFor(dip.dipId)).toHaveLength(0);
      expect(await h.collections.dipShares.countDocuments({ dipId: dip.dipId, inviteType: 'targeted' })).toBe(
        0,
      );

      const referral = await post(owner.user, '/api/referrals', {
        referrerName: 'Dee',
        referralEmail: 'friend@example.co.uk',
      });
      expect(referral.statusCode).toBe(503);
      expect(referral.json()).toMatchObject({ error: SHARING_MESSAGES.invitationsUnavailable });
      const deal = await post(owner.user, '/api/referrals/deal-share', {
        referralEmail: 'friend@example.co.uk',
        referrerId: owner.user.userId,
        ...(await h.searchOffer(owner.client)).deal,
      });
      expect(deal.statusCode).toBe(503);
      expect(await h.collections.referrals.countDocuments({ referrerUserId: owner.user.userId })).toBe(0);
      expect(await h.collections.sharedDeals.countDocuments({ referrerId: owner.user.userId })).toBe(0);
    });
  });
});
