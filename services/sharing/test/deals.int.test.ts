import { randomUUID } from 'node:crypto';
import { IDENTITY_EVENT_TYPES, SHARING_MESSAGES, createEnvelope } from '@lsp/contracts';
import { ProcessedEvents } from '@lsp/service-kit';
import { forgedOffer, useHarness } from '@lsp/testing';
import { sharingRepositories } from '../src/data/repositories';
import { handleUserRegistered } from '../src/events/consumed';
import { type SearchedOffer, type SharingHarness, startSharingHarness } from './sharing-harness';

jest.setTimeout(60_000);

const FORGED = /Forged|Guaranteed|invented/;

describe('shared deals, referrals and share-funnel telemetry', () => {
  const h = useHarness(startSharingHarness);
  /** Each referrer's own search run, run once: the offer a deal share names. */
  const searched = new Map<string, SearchedOffer>();

  type Referrer = Awaited<ReturnType<SharingHarness['signedIn']>>;

  async function offerOf(referrer: Referrer): Promise<SearchedOffer> {
    const known = searched.get(referrer.user.userId);
    if (known) return known;
    const offer = await h.searchOffer(referrer.client);
    searched.set(referrer.user.userId, offer);
    return offer;
  }

  async function shareDeal(referrer: Referrer, extra: object = {}) {
    return referrer.client.post('/api/referrals/deal-share', {
      referralEmail: 'Friend@Example.co.uk',
      referrerId: referrer.user.userId,
      ...(await offerOf(referrer)).deal,
      note: 'Have a look',
      ...extra,
    });
  }

  describe('POST /api/referrals/deal-share and the deal page', () => {
    it('stores the deal, writes deal.shared and opens by its token; the first view writes deal.viewed once', async () => {
      const referrer = await h.signedIn({ name: 'Rob Referrer' });
      const res = await shareDeal(referrer);
      expect(res.status).toBe(201);
      const { success, signupToken } = res.json();
      expect(success).toBe(true);
      expect(signupToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const { offer } = await offerOf(referrer);
      const shared = (await h.outboxEvents('deal.shared')).at(-1)!;
      expect(shared.data).toMatchObject({
        referrerId: referrer.user.userId,
        referrerName: 'Rob Referrer',
        referralEmail: 'friend@example.co.uk',
        lenderName: offer.LenderName,
        note: 'Have a look',
        dealUrl: `http://localhost:8080/shared-deal/${signupToken}`,
      });
      const anonymous = h.client();
      const page = await anonymous.get(`/api/shared-deal/${signupToken}`);
      expect(page.status).toBe(200);
      expect(page.json()).toMatchObject({
        success: true,
        referrer_name: 'Rob Referrer',
        note: 'Have a look',
        loan_type: 'bridging',
      });
      expect(JSON.parse(page.json().loan_data)).toEqual(offer);
      for (let i = 0; i < 2; i += 1)
        expect((await anonymous.post(`/api/shared-deal/${signupToken}/viewed`)).status).toBe(200);
      const viewed = (await h.outboxEvents('deal.viewed')).filter(
        (e) => e.data.dealId === shared.data.dealId,
      );
      expect(viewed).toHaveLength(1);
      expect((await anonymous.get(`/api/shared-deal/${signupToken}`)).json().viewed).toBe(true);
    });

    it('answers 404 for an unknown token and refuses bad input, another referrer id and anonymous callers', async () => {
      const unknown = await h.client().get('/api/shared-deal/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect(unknown.status).toBe(404);
      expect(unknown.json().error).toBe(SHARING_MESSAGES.dealNotFound);
      expect((await h.client().post('/api/shared-deal/short/viewed')).status).toBe(404);
      const referrer = await h.signedIn();
      const before = await h.collections.sharedDeals.countDocuments();
      const other = await shareDeal(referrer, { referrerId: 'someone-else' });
      expect(other.status).toBe(403);
      expect(other.json().error).toBe(SHARING_MESSAGES.referrerMismatch);
      expect((await shareDeal(referrer, { referralEmail: 'not-an-email' })).json().error).toBe(
        'Invalid Email Addresses',
      );
      for (const referralEmail of ['', '   ', undefined]) {
        expect((await shareDeal(referrer, { referralEmail })).json().error).toBe('Email Required');
      }
      expect((await shareDeal(referrer, { loanType: 'mortgage' })).status).toBe(400);
      expect((await shareDeal(referrer, { loanData: 'x'.repeat(20_001) })).status).toBe(400);
      expect((await shareDeal(referrer, { loanData: 'not json' })).status).toBe(400);
      const anonymous = await h.client().post('/api/referrals/deal-share', { referralEmail: 'a@b.co' });
      expect(anonymous.status).toBe(401);
      expect(await h.collections.sharedDeals.countDocuments()).toBe(before);
    });

    it('shares only the run’s own offer: none of the posted offer’s edits reach the share, its event or its page', async () => {
      const referrer = await h.signedIn({ name: 'Rob Referrer' });
      const { offer, deal } = await offerOf(referrer);
      const forged = forgedOffer(offer);
      // Every field of the posted offer edited, its ids included: the request's own ids name the offer.
      const res = await shareDeal(referrer, { loanData: JSON.stringify(forged), note: undefined });
      expect(res.status).toBe(201);
      expect(res.text).not.toMatch(FORGED);
      const { signupToken } = res.json();
      const stored = await h.collections.sharedDeals.findOne({ signupToken });
      expect(JSON.parse(stored!.loanData)).toEqual(offer);
      const shared = (await h.outboxEvents('deal.shared')).at(-1)!;
      expect(shared.data.lenderName).toBe(offer.LenderName);
      const page = await h.client().get(`/api/shared-deal/${signupToken}`);
      expect(page.status).toBe(200);
      expect(JSON.parse(page.json().loan_data)).toEqual(offer);
      for (const seen of [JSON.stringify(stored), JSON.stringify(shared), page.text])
        expect(seen).not.toMatch(FORGED);
      // The posted offer as an object, naming the offer by its own LenderId and ProductId: the same.
      const byPostedIds = await shareDeal(referrer, {
        lenderId: undefined,
        productId: undefined,
        loanData: { ...forged, LenderId: deal.lenderId, ProductId: deal.productId },
      });
      expect(byPostedIds.status).toBe(201);
      const second = await h.client().get(`/api/shared-deal/${byPostedIds.json().signupToken}`);
      expect(JSON.parse(second.json().loan_data)).toEqual(offer);
    });

    it('refuses what the server did not produce with a clear 4xx, and sends nothing', async () => {
      const owner = await h.signedIn();
      const stranger = await h.signedIn();
      const { deal } = await offerOf(owner);
      const dealsBefore = await h.collections.sharedDeals.countDocuments();
      const sharedBefore = (await h.outboxEvents('deal.shared')).length;
      const refused = async (referrer: Referrer, fields: object, status: number, error: string) => {
        const res = await referrer.client.post('/api/referrals/deal-share', {
          referralEmail: 'friend@example.co.uk',
          referrerId: referrer.user.userId,
          ...deal,
          ...fields,
        });
        expect([res.status, res.json().error]).toEqual([status, error]);
      };
      // Another user's run, even with its real ids and offer.
      await refused(stranger, {}, 403, SHARING_MESSAGES.dealRunOfOtherUser);
      await refused(owner, { searchRunId: undefined }, 400, SHARING_MESSAGES.dealWithoutRun);
      await refused(
        owner,
        { lenderId: undefined, productId: undefined, loanData: '{"LenderName":"Forged Bank PLC"}' },
        400,
        SHARING_MESSAGES.dealWithoutOffer,
      );
      await refused(owner, { searchRunId: randomUUID() }, 404, SHARING_MESSAGES.dealRunNotFound);
      // The run is a bridging run: as a development run it is unknown.
      await refused(owner, { loanType: 'development' }, 404, SHARING_MESSAGES.dealRunNotFound);
      await refused(owner, { productId: 'invented-product' }, 404, SHARING_MESSAGES.dealOfferNotInRun);
      await refused(owner, { lenderId: 'forged-bank' }, 404, SHARING_MESSAGES.dealOfferNotInRun);
      expect(await h.collections.sharedDeals.countDocuments()).toBe(dealsBefore);
      expect(await h.outboxEvents('deal.shared')).toHaveLength(sharedBefore);
      // None of the refusals spent the owner's allowance (5 an hour here): five shares still go.
      for (let i = 0; i < 5; i += 1) expect((await shareDeal(owner)).status).toBe(201);
    });

    it('shares a run made before signing in (whoever holds its id), as a save does', async () => {
      const anonymousRun = await h.searchOffer(h.client());
      const referrer = await h.signedIn();
      const res = await referrer.client.post('/api/referrals/deal-share', {
        referralEmail: 'friend@example.co.uk',
        referrerId: referrer.user.userId,
        ...anonymousRun.deal,
      });
      expect(res.status).toBe(201);
      const page = await h.client().get(`/api/shared-deal/${res.json().signupToken}`);
      expect(JSON.parse(page.json().loan_data)).toEqual(anonymousRun.offer);
    });

    it.each(['whatsapp', 'facebook', 'linkedin'])(
      'makes a %s share a deal link with the offer, the sharer and the note, and sends no email',
      async (channel) => {
        const referrer = await h.signedIn({ name: 'Sofia Social' });
        const sharedBefore = (await h.outboxEvents('deal.shared')).length;
        const res = await shareDeal(referrer, { referralEmail: undefined, channel, note: 'For the group' });
        expect(res.status).toBe(201);
        const { signupToken } = res.json();
        expect(signupToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
        const page = await h.client().get(`/api/shared-deal/${signupToken}`);
        expect(page.status).toBe(200);
        expect(page.json()).toMatchObject({ referrer_name: 'Sofia Social', note: 'For the group' });
        expect(JSON.parse(page.json().loan_data)).toEqual((await offerOf(referrer)).offer);
        expect(await h.collections.sharedDeals.findOne({ signupToken })).toMatchObject({
          referralEmail: null,
          channel,
        });
        expect(await h.outboxEvents('deal.shared')).toHaveLength(sharedBefore);
      },
    );

    it('still asks an email share for its recipient, and refuses an unknown channel', async () => {
      const referrer = await h.signedIn();
      const email = await shareDeal(referrer, { referralEmail: undefined, channel: 'email' });
      expect(email.status).toBe(400);
      expect(email.json().error).toBe('Email Required');
      expect((await shareDeal(referrer, { channel: 'carrier-pigeon' })).status).toBe(400);
    });

    it('links a person who registers from the deal (refDealId) to it, once', async () => {
      const referrer = await h.signedIn();
      const { signupToken } = (await shareDeal(referrer)).json();
      const processed = await ProcessedEvents.open(h.mongo);
      const onRegistered = handleUserRegistered(sharingRepositories(h.mongo).deals);
      const registered = (userId: string) =>
        createEnvelope('identity', {
          type: IDENTITY_EVENT_TYPES.registered,
          subject: userId,
          data: {
            userId,
            email: 'friend@example.co.uk',
            name: 'Fran Friend',
            source: 'register',
            refDealId: signupToken,
            registeredAt: new Date().toISOString(),
          },
        });
      for (const userId of ['new-user-1', 'new-user-2']) {
        const event = registered(userId);
        await processed.handleOnce('sharing:registrations', event, (session) => onRegistered(event, session));
      }
      const deal = await h.collections.sharedDeals.findOne({ signupToken });
      expect(deal?.linkedUserId).toBe('new-user-1');
    });
  });

  describe('POST /api/referrals', () => {
    it('records the referral and writes referral.created with the invitation link', async () => {
      const { client, user } = await h.signedIn();
      const res = await client.post('/api/referrals', {
        referrerName: 'Rob',
        referralEmail: 'pal@example.co.uk',
        message: 'Try it',
      });
      expect(res.status).toBe(201);
      const event = (await h.outboxEvents('referral.created')).at(-1)!;
      expect(event.data).toMatchObject({
        referralId: res.json().referralId,
        referrerUserId: user.userId,
        referrerName: 'Rob',
        referralEmail: 'pal@example.co.uk',
        message: 'Try it',
        inviteUrl: 'http://localhost:8080/register',
      });
    });

    it('answers the spec’s messages for missing and invalid input, and 401 signed out', async () => {
      const { client } = await h.signedIn();
      const missing = await client.post('/api/referrals', {
        referrerName: '',
        referralEmail: 'pal@example.co.uk',
      });
      expect(missing.status).toBe(400);
      expect(missing.json().error).toBe(SHARING_MESSAGES.referralMissing);
      const invalid = await client.post('/api/referrals', {
        referrerName: 'Rob',
        referralEmail: 'pal@example',
      });
      expect(invalid.json().error).toBe(SHARING_MESSAGES.referralInvalidEmail);
      expect(
        (await h.client().post('/api/referrals', { referrerName: 'Rob', referralEmail: 'a@b.co' })).status,
      ).toBe(401);
    });

    it('limits invitations per user with a clear 429 (deal shares and referrals together)', async () => {
      const spammer = await h.signedIn();
      // The harness allows 5 an hour.
      for (let i = 0; i < 3; i += 1) expect((await shareDeal(spammer)).status).toBe(201);
      for (let i = 0; i < 2; i += 1)
        expect(
          (
            await spammer.client.post('/api/referrals', {
              referrerName: 'S',
              referralEmail: `p${i}@example.co.uk`,
            })
          ).status,
        ).toBe(201);
      const refused = await spammer.client.post('/api/referrals', {
        referrerName: 'S',
        referralEmail: 'p9@example.co.uk',
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({
        error: SHARING_MESSAGES.tooManyInvitations,
        retryAfterSeconds: expect.any(Number),
      });
      expect((await shareDeal(spammer)).status).toBe(429);
      // Another user is not affected.
      const other = await h.signedIn();
      expect((await shareDeal(other)).status).toBe(201);
    });
  });

  describe('POST /api/telemetry/share-funnel', () => {
    const count = (sessionId: string) => h.collections.shareFunnel.countDocuments({ sessionId });

    it('records a spec event once within 30 s, ignores unknown events and bad bodies, always 204', async () => {
      const client = h.client();
      const sessionId = `s-${Date.now()}`;
      const body = {
        event: 'share_link_copied',
        dipId: 'd1',
        shareId: 's1',
        context: 'owner',
        sessionId,
        metadata: { via: 'menu' },
      };
      for (let i = 0; i < 3; i += 1)
        expect((await client.post('/api/telemetry/share-funnel', body)).status).toBe(204);
      expect(await count(sessionId)).toBe(1);
      expect(
        (
          await client.post('/api/telemetry/share-funnel', {
            ...body,
            event: 'shared_dip_viewed',
            duration: 1200,
          })
        ).status,
      ).toBe(204);
      expect(
        (await client.post('/api/telemetry/share-funnel', { ...body, event: 'made_up_event' })).status,
      ).toBe(204);
      expect(
        (
          await client.post('/api/telemetry/share-funnel', 'not json', {
            headers: { 'content-type': 'text/plain' },
          })
        ).status,
      ).toBeLessThan(500);
      expect(await count(sessionId)).toBe(2);
      const stored = await h.collections.shareFunnel.findOne({ sessionId, event: 'shared_dip_viewed' });
      expect(stored).toMatchObject({ dipId: 'd1', shareId: 's1', context: 'owner', duration: 1200 });
      const indexes = await h.collections.shareFunnel.indexes();
      expect(indexes.find((i) => i.name === 'share_funnel_ttl')?.expireAfterSeconds).toBe(90 * 24 * 3600);
    });

    it('stops recording past the per-session allowance but still answers 204', async () => {
      const client = h.client();
      const sessionId = `busy-${Date.now()}`;
      // The harness allows 20 a minute; distinct share ids so none is a duplicate.
      for (let i = 0; i < 25; i += 1) {
        const res = await client.post('/api/telemetry/share-funnel', {
          event: 'share_link_opened',
          shareId: `s${i}`,
          sessionId,
        });
        expect(res.status).toBe(204);
      }
      expect(await count(sessionId)).toBe(20);
    });
  });
});
