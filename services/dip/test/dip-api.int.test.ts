import { randomUUID } from 'node:crypto';
import { DIP_MESSAGES, SHARING_EVENT_TYPES, createEnvelope } from '@lsp/contracts';
import { type CookieClient, useHarness } from '@lsp/testing';
import { QUOTE_CODE_PATTERN, newQuoteCode, newShareSlug } from '../src/domain/codes';
import { buildSnapshot } from '../src/domain/snapshot';
import { HOUR, TEXT_PDFS, startDipHarness } from './dip-harness';
import { AS_CREATED, DIP_APPLICATION, OFFER, versionOneDocument } from './fixtures';

describe('dip service through the gateway', () => {
  const h = useHarness(() => startDipHarness({ pdfs: TEXT_PDFS }));
  let owner: { client: CookieClient; user: { userId: string; email: string; name: string } };
  let other: { client: CookieClient; user: { userId: string; email: string } };
  let searchId: string;

  beforeAll(async () => {
    owner = await h.signedIn({ name: 'Alex Investor' });
    other = await h.signedIn({ name: 'Other Person' });
    searchId = await h.savedSearch(owner.client, owner.user.userId);
  });

  const create = (client: CookieClient, id = searchId, index = 0, body: unknown = { validHours: 48 }) =>
    client.post(`/api/online-dip/create/${id}/${index}`, body);

  async function newDip(client = owner.client) {
    const res = await create(client);
    expect(res.status).toBe(201);
    return res.json() as { dipId: string; quoteCode: string; shareUrl: string; expiresAt: string };
  }

  async function outboxOf(type: string) {
    return (await h.dipDb.collection('outbox').find({ type }).toArray()).map((e) =>
      JSON.parse(e.payload as string),
    );
  }

  describe('POST /api/online-dip/create/{searchId}/{loanIndex}', () => {
    it('creates a DIP from an offer of the saved search: quote code, share URL, expiry from validHours', async () => {
      const before = Date.now();
      const res = await create(owner.client);
      expect(res.status).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        ok: true,
        dipId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        quoteCode: expect.stringMatching(QUOTE_CODE_PATTERN),
        shareUrl: expect.stringMatching(/^http:\/\/localhost:8080\/dip\/[A-Za-z0-9_-]{22}$/),
        expiresAt: expect.any(String),
        validityHours: 48,
      });
      const hours = (Date.parse(body.expiresAt) - before) / HOUR;
      expect(hours).toBeGreaterThan(47.9);
      expect(hours).toBeLessThan(48.1);
      const [event] = (await outboxOf('dip.created')).filter((e) => e.subject === body.dipId);
      expect(event.data).toMatchObject({
        dipId: body.dipId,
        ownerUserId: owner.user.userId,
        ownerEmail: owner.user.email,
        quoteCode: body.quoteCode,
        version: 1,
        snapshot: { loanType: 'development', borrower: { name: 'Alex Investor' } },
      });
    });

    it('creates a DIP from a search saved a moment ago, before search.saved has reached dip (it asks search)', async () => {
      const fresh = await h.savedSearch(owner.client, owner.user.userId);
      // As if search.saved were still on its way (the helper waited for it to be handled, so it will
      // not come again): dip's projection does not have the search.
      await h.dipDb.collection('saved_searches').deleteOne({ _id: fresh as never });
      const res = await create(owner.client, fresh);
      expect(res.status).toBe(201);
      expect(await h.dipDb.collection('saved_searches').findOne({ _id: fresh as never })).toMatchObject({
        userId: owner.user.userId,
        loanType: 'development',
      });
      // The search's owner is still checked on what search answered.
      const notTheirs = await h.savedSearch(owner.client, owner.user.userId);
      await h.dipDb.collection('saved_searches').deleteOne({ _id: notTheirs as never });
      expect((await create(other.client, notTheirs)).status).toBe(403);
      expect((await create(owner.client, randomUUID())).status).toBe(404);
    });

    it('stores money as Decimal128 with two places', async () => {
      const { dipId } = await newDip();
      const stored = await h.dipDb.collection('online_dips').findOne({ _id: dipId as never });
      expect(stored?.snapshot.loan.netLoan._bsontype).toBe('Decimal128');
      expect(stored?.snapshot.loan.netLoan.toString()).toMatch(/^\d+\.\d{2}$/);
    });

    it("answers 401 with the spec's message when nobody is signed in, and creates nothing", async () => {
      const before = await h.dipDb.collection('online_dips').countDocuments();
      const res = await create(h.client());
      expect(res.status).toBe(401);
      expect(res.json().error).toBe('Authentication Required - Please log in to create a DIP');
      expect(await h.dipDb.collection('online_dips').countDocuments()).toBe(before);
    });

    it("refuses someone else's search with 403, an unknown search or offer with 404, bad input with 400", async () => {
      expect((await create(other.client)).status).toBe(403);
      const unknown = await create(owner.client, randomUUID());
      expect(unknown.status).toBe(404);
      expect(unknown.json().error).toBe(DIP_MESSAGES.searchNotFound);
      const noOffer = await create(owner.client, searchId, 9999);
      expect(noOffer.status).toBe(404);
      expect(noOffer.json().error).toBe(DIP_MESSAGES.offerNotFound);
      expect((await create(owner.client, searchId, -1)).status).toBe(400);
      expect((await create(owner.client, searchId, 0, { validHours: 100000 })).status).toBe(400);
      expect((await create(owner.client, searchId, 0, [1, 2])).status).toBe(400);
    });

    it('gives 50 DIPs created at once 50 different quote codes', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => create(owner.client)));
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
      const codes = new Set(results.map((r) => r.json().quoteCode));
      expect(codes.size).toBe(50);
    });
  });

  describe('reading DIPs', () => {
    it('shows the owner the DIP (owner view) and the online DIP page by slug', async () => {
      const dip = await newDip();
      const view = await owner.client.get(`/api/online-dip/${dip.dipId}`);
      expect(view.status).toBe(200);
      expect(view.json().dip).toMatchObject({
        reference: dip.quoteCode,
        status: 'active',
        expires_at: dip.expiresAt,
        borrower: { name: 'Alex Investor' },
        loan: { productType: 'Development Finance', ratePercent: expect.any(Number) },
        property: { addressLine1: '12 Mill Lane, Leeds', propertyType: 'Residential' },
      });
      const slug = dip.shareUrl.split('/').pop();
      const online = await owner.client.get(`/api/online-dip/${slug}`);
      expect(online.status).toBe(200);
      expect(online.headers.get('cache-control')).toBe('private, max-age=60');
      expect(online.json()).toMatchObject({
        quoteCode: dip.quoteCode,
        borrowerName: 'Alex Investor',
        projectCity: 'South East',
        validityHours: 48,
        regulated: false,
        loan: { netLoan: expect.any(Number), interestRatePct: expect.any(Number) },
        project: { location: 'South East', propertyType: 'Residential' },
      });
    });

    it('says how many hours the DIP is still valid for, after Set Expiry too', async () => {
      const dip = await newDip();
      const slug = dip.shareUrl.split('/').pop();
      expect((await owner.client.get(`/api/online-dip/${slug}`)).json().validityHours).toBe(48);
      expect((await owner.client.post(`/api/online-dip/${dip.dipId}/expiry`, {})).status).toBe(200);
      expect((await owner.client.get(`/api/online-dip/${slug}`)).json().validityHours).toBe(30 * 24);
      h.clock.advance(2 * HOUR);
      try {
        expect((await owner.client.get(`/api/online-dip/${slug}`)).json().validityHours).toBe(30 * 24 - 2);
      } finally {
        h.clock.advance(-2 * HOUR);
      }
    });

    it('reads a DIP stored before documents had a version, in every view', async () => {
      const now = h.clock.now();
      const stored = versionOneDocument({
        id: randomUUID(),
        userId: owner.user.userId,
        searchId,
        loanIndex: 0,
        quoteCode: newQuoteCode(),
        shareSlug: newShareSlug(),
        linkStatus: 'active',
        validityHours: 48,
        snapshot: buildSnapshot(
          'development',
          OFFER,
          { propertyAddress: '3 Old Road', propertyLocation: 'SouthEast' },
          { name: 'Alex Investor', email: owner.user.email },
          false,
        ),
        expiresAt: new Date(now.getTime() + 48 * HOUR),
        createdAt: now,
        ...AS_CREATED,
      });
      await h.dipDb.collection('online_dips').insertOne(stored as never);
      const view = await owner.client.get(`/api/online-dip/${String(stored._id)}`);
      expect(view.status).toBe(200);
      expect(view.json().dip).toMatchObject({
        status: 'active',
        productChange: null,
        loan: { netLoanAmount: OFFER.NetLoan, ratePercent: 11.25, lenderName: OFFER.LenderName },
        financial: { depositRequired: OFFER.DepositRequired, gdv: null },
        property: { addressLine1: '3 Old Road' },
      });
      const listed = (await owner.client.get(`/api/online-dip/user/${owner.user.userId}`))
        .json()
        .dips.find((d: { id: string }) => d.id === stored._id);
      expect(listed.snapshot).toMatchObject({ netLoan: OFFER.NetLoan, interestRate: OFFER.InterestRate });
      const online = await owner.client.get(`/api/online-dip/${String(stored.shareSlug)}`);
      expect(online.json()).toMatchObject({ loan: { netLoan: OFFER.NetLoan, interestRatePct: 11.25 } });
    });

    it('lists the owner’s DIPs newest first and refuses anyone else’s list', async () => {
      const dip = await newDip();
      const list = await owner.client.get(`/api/online-dip/user/${owner.user.userId}`);
      expect(list.status).toBe(200);
      expect(list.json().dips[0]).toMatchObject({
        id: dip.dipId,
        quoteCode: dip.quoteCode,
        isExpired: false,
        snapshot: {
          loanType: 'development',
          lenderName: expect.any(String),
          interestRate: expect.any(Number),
        },
      });
      expect((await other.client.get(`/api/online-dip/user/${owner.user.userId}`)).status).toBe(403);
      expect((await h.client().get(`/api/online-dip/user/${owner.user.userId}`)).status).toBe(401);
    });

    it("refuses another user on every owner-scoped call with the spec's 403", async () => {
      const dip = await newDip();
      const slug = dip.shareUrl.split('/').pop();
      const calls = [
        other.client.get(`/api/online-dip/${dip.dipId}`),
        other.client.get(`/api/online-dip/${slug}`),
        other.client.get(`/api/online-dip/pdf/${dip.quoteCode}`),
        other.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {}),
        other.client.post(`/api/online-dip/${dip.dipId}/expiry`, {}),
        other.client.post(`/api/online-dip/${dip.dipId}/revoke`, {}),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.json().error).toBe(DIP_MESSAGES.accessDenied);
      }
      const after = await owner.client.get(`/api/online-dip/${dip.dipId}`);
      expect(after.json().dip.shareSlug).toBe(slug);
    });

    it('answers an unknown DIP with 404 and its message', async () => {
      for (const path of [`/api/online-dip/${randomUUID()}`, '/api/online-dip/AAAAAAAAAAAAAAAAAAAAAA']) {
        const res = await owner.client.get(path);
        expect(res.status).toBe(404);
        expect(res.json().error).toBe('DIP not found or may have been removed');
      }
    });

    it('answers 410 once the DIP has expired (the clock moved on), and refuses owner actions on it; its owner still opens it, Expired', async () => {
      const res = await create(owner.client, searchId, 0, { validHours: 1 });
      const dip = res.json();
      h.clock.advance(2 * HOUR);
      try {
        const own = await owner.client.get(`/api/online-dip/${dip.dipId}`);
        expect(own.status).toBe(200);
        expect(own.json().dip).toMatchObject({ reference: dip.quoteCode, status: 'expired' });
        expect((await other.client.get(`/api/online-dip/${dip.dipId}`)).status).toBe(403);
        for (const r of [
          await owner.client.get(`/api/online-dip/pdf/${dip.quoteCode}`),
          await owner.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {}),
          await owner.client.get(`/api/online-dip/${dip.shareUrl.split('/').pop()}`),
          await owner.client.post(`/api/online-dip/${dip.dipId}/expiry`, {}),
          await owner.client.post(`/api/online-dip/${dip.dipId}/revoke`, {}),
        ]) {
          expect(r.status).toBe(410);
          expect(r.json().error).toBe('This DIP has expired and is no longer available');
        }
        const list = await owner.client.get(`/api/online-dip/user/${owner.user.userId}`);
        const item = list.json().dips.find((d: { id: string }) => d.id === dip.dipId);
        expect(item).toMatchObject({ isExpired: true, status: 'expired' });
      } finally {
        h.clock.advance(-2 * HOUR);
      }
    });
  });

  describe("the owner's link actions", () => {
    it('regenerate gives a new slug; the old link stops working; the event names both', async () => {
      const dip = await newDip();
      const oldSlug = dip.shareUrl.split('/').pop();
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {});
      expect(res.status).toBe(200);
      const { shareSlug, shareUrl } = res.json();
      expect(shareSlug).not.toBe(oldSlug);
      expect(shareUrl).toBe(`http://localhost:8080/dip/${shareSlug}`);
      expect((await owner.client.get(`/api/online-dip/${oldSlug}`)).status).toBe(404);
      expect((await owner.client.get(`/api/online-dip/${shareSlug}`)).status).toBe(200);
      const [event] = (await outboxOf('dip.link.regenerated')).filter((e) => e.subject === dip.dipId);
      expect(event.data).toMatchObject({ shareSlug, previousShareSlug: oldSlug, version: 2 });
    });

    it('set expiry defaults to 30 days from now and refuses a date in the past', async () => {
      const dip = await newDip();
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/expiry`, {});
      expect(res.status).toBe(200);
      const days = (Date.parse(res.json().expiresAt) - Date.now()) / (24 * HOUR);
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThan(30.1);
      const past = await owner.client.post(`/api/online-dip/${dip.dipId}/expiry`, {
        expiresAt: new Date(Date.now() - HOUR).toISOString(),
      });
      expect(past.status).toBe(400);
      const [event] = (await outboxOf('dip.expiry.changed')).filter((e) => e.subject === dip.dipId);
      expect(event.data.expiresAt).toBe(res.json().expiresAt);
    });

    it('revoke clears the link until the owner regenerates one', async () => {
      const dip = await newDip();
      const slug = dip.shareUrl.split('/').pop();
      expect((await owner.client.post(`/api/online-dip/${dip.dipId}/revoke`, {})).status).toBe(200);
      expect((await owner.client.get(`/api/online-dip/${slug}`)).status).toBe(404);
      const view = await owner.client.get(`/api/online-dip/${dip.dipId}`);
      expect(view.json().dip).toMatchObject({ status: 'revoked', shareSlug: null, shareUrl: null });
      expect((await outboxOf('dip.revoked')).some((e) => e.subject === dip.dipId)).toBe(true);
      // The next link says when the old one was revoked, so a consumer that missed dip.revoked
      // ends every share rather than only the open link's (sharing keeps recipients by email otherwise).
      const revoked = (await outboxOf('dip.revoked')).find((e) => e.subject === dip.dipId);
      await owner.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {});
      const [regenerated] = (await outboxOf('dip.link.regenerated')).filter((e) => e.subject === dip.dipId);
      expect(regenerated.data.linkRevokedAt).toBe(revoked.data.revokedAt);
    });
  });

  describe('recipients, known from the sharing events', () => {
    async function share(
      dip: { dipId: string; quoteCode: string; shareUrl: string },
      email: string | null,
      options: {
        downloadPdf?: boolean;
        shareId?: string;
        createdAt?: Date;
        expiresAt?: Date;
        expiresWithDip?: boolean;
      } = {},
    ) {
      const shareId = options.shareId ?? randomUUID();
      const slug = dip.shareUrl.split('/').pop();
      await h.bus.publish(
        createEnvelope('sharing', {
          type: SHARING_EVENT_TYPES.shareCreated,
          subject: shareId,
          data: {
            shareId,
            dipId: dip.dipId,
            ownerUserId: owner.user.userId,
            sharedByName: 'Alex Investor',
            inviteType: email === null ? 'open' : 'targeted',
            recipientEmail: email,
            permissions: { view: true, downloadPdf: options.downloadPdf ?? true },
            message: null,
            quoteCode: dip.quoteCode,
            shareUrl: `http://localhost:8080/shared/${slug}?e=x&sig=y`,
            expiresAt: (options.expiresAt ?? new Date(Date.now() + 48 * HOUR)).toISOString(),
            ...(options.expiresWithDip === undefined ? {} : { expiresWithDip: options.expiresWithDip }),
            createdAt: (options.createdAt ?? new Date()).toISOString(),
          },
        }),
      );
      return shareId;
    }

    const revoke = (dip: { dipId: string }, shareId: string, email: string | null, at: Date) =>
      h.bus.publish(
        createEnvelope('sharing', {
          type: SHARING_EVENT_TYPES.shareRevoked,
          subject: shareId,
          data: {
            shareId,
            dipId: dip.dipId,
            recipientEmail: email,
            reason: 'owner',
            revokedAt: at.toISOString(),
          },
        }),
      );

    /** sharing's share.viewed for someone who opened the open link `linkId` while signed in. */
    const openLink = (dip: { dipId: string }, linkId: string, userId: string, email: string) =>
      h.bus.publish(
        createEnvelope('sharing', {
          type: SHARING_EVENT_TYPES.shareViewed,
          subject: dip.dipId,
          data: {
            // The opener's own entry in 'Shared with me' has an id of its own; linkId names the link.
            shareId: randomUUID(),
            linkId,
            dipId: dip.dipId,
            ownerUserId: owner.user.userId,
            recipientUserId: userId,
            recipientEmail: email,
            viewedAt: new Date().toISOString(),
          },
        }),
      );

    /** Waits until `client` is answered `status` at `path`: the sharing events have reached dip. */
    const untilAnswered = (client: CookieClient, path: string, status: number, what: string) =>
      h.until(async () => (await client.get(path)).status === status, what);

    it('lets a recipient see the online DIP and download the PDF; a revoked share ends it', async () => {
      const dip = await newDip();
      const recipient = await h.signedIn({ email: 'Recipient@Example.com' });
      const slug = dip.shareUrl.split('/').pop();
      expect((await recipient.client.get(`/api/online-dip/${slug}`)).status).toBe(403);
      const shareId = await share(dip, 'recipient@example.com');
      await untilAnswered(recipient.client, `/api/online-dip/${slug}`, 200, 'access');
      const pdf = await recipient.client.get(`/api/online-dip/pdf/${dip.quoteCode}`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="DIP-${dip.quoteCode}.pdf"`);
      // The owner view stays the owner's.
      expect((await recipient.client.get(`/api/online-dip/${dip.dipId}`)).status).toBe(403);
      await revoke(dip, shareId, 'recipient@example.com', new Date());
      await untilAnswered(recipient.client, `/api/online-dip/${slug}`, 403, 'revocation');
    });

    it('gives access back when the owner shares again after a revocation, and ignores a late older event', async () => {
      const dip = await newDip();
      const recipient = await h.signedIn({ email: 'again@example.com' });
      const slug = dip.shareUrl.split('/').pop();
      const canView = async () => (await recipient.client.get(`/api/online-dip/${slug}`)).status === 200;
      const first = new Date(Date.now() - 60_000);
      const shareId = await share(dip, 'again@example.com', { createdAt: first });
      await h.until(canView, 'first access');
      await revoke(dip, shareId, 'again@example.com', new Date(Date.now() - 30_000));
      await h.until(async () => !(await canView()), 'revocation');
      // Sharing re-uses the share's id when the same email is shared again.
      await share(dip, 'again@example.com', { shareId, createdAt: new Date() });
      await h.until(canView, 'access after sharing again');
      expect((await recipient.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(200);
      // A share.created older than the revocation, arriving late (another topic), changes nothing.
      await revoke(dip, shareId, 'again@example.com', new Date(Date.now() + 1000));
      await h.until(async () => !(await canView()), 'second revocation');
      await share(dip, 'again@example.com', { shareId, createdAt: first });
      const marker = await share(dip, 'marker@example.com');
      const markerUser = await h.signedIn({ email: 'marker@example.com' });
      await untilAnswered(markerUser.client, `/api/online-dip/${slug}`, 200, `the later event ${marker}`);
      expect(await canView()).toBe(false);
    });

    it('lets whoever opened the open link view the DIP and download its PDF', async () => {
      const dip = await newDip();
      const opener = await h.signedIn({ email: 'opener@example.com' });
      const slug = dip.shareUrl.split('/').pop();
      const linkId = await share(dip, null, { expiresWithDip: true });
      await openLink(dip, linkId, opener.user.userId, 'opener@example.com');
      await untilAnswered(opener.client, `/api/online-dip/${slug}`, 200, 'open-link access');
      expect((await opener.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(200);
      const stranger = await h.signedIn({ email: 'stranger@example.com' });
      expect((await stranger.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(403);
    });

    it('keeps a recipient in when the owner extends the DIP past the expiry it was shared with', async () => {
      const dip = await newDip();
      const recipient = await h.signedIn({ email: 'extended@example.com' });
      const slug = dip.shareUrl.split('/').pop();
      await share(dip, 'extended@example.com', { expiresWithDip: true });
      await untilAnswered(recipient.client, `/api/online-dip/${slug}`, 200, 'access');
      const extended = await owner.client.post(`/api/online-dip/${dip.dipId}/expiry`, {});
      expect(extended.status).toBe(200);
      h.clock.advance(72 * HOUR);
      try {
        expect((await recipient.client.get(`/api/online-dip/${slug}`)).status).toBe(200);
        expect((await recipient.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(200);
      } finally {
        h.clock.advance(-72 * HOUR);
      }
    });

    it('keeps a recipient shared by email when the owner regenerates the link, ends it when the link is revoked, and refuses the PDF where the share does not allow it', async () => {
      const dip = await newDip();
      const viewer = await h.signedIn({ email: 'viewer@example.com' });
      const slug = dip.shareUrl.split('/').pop();
      await share(dip, 'viewer@example.com', { downloadPdf: false });
      await untilAnswered(viewer.client, `/api/online-dip/${slug}`, 200, 'access');
      expect((await viewer.client.get(`/api/online-dip/pdf/${dip.dipId}`)).status).toBe(403);
      const regenerated = await owner.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {});
      const newSlug = regenerated.json().shareSlug as string;
      // The old URL no longer opens; the person it was shared with by email still reads the DIP.
      expect((await viewer.client.get(`/api/online-dip/${slug}`)).status).toBe(404);
      expect((await viewer.client.get(`/api/online-dip/${newSlug}`)).status).toBe(200);
      expect((await viewer.client.get(`/api/online-dip/pdf/${dip.dipId}`)).status).toBe(403);

      const reader = await h.signedIn({ email: 'reader@example.com' });
      await share(dip, 'reader@example.com');
      await untilAnswered(reader.client, `/api/online-dip/pdf/${dip.quoteCode}`, 200, 'PDF access');
      await owner.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {});
      expect((await reader.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(200);

      // Revoking the link ends every share at once, and a regenerate straight after revives none.
      expect((await owner.client.post(`/api/online-dip/${dip.dipId}/revoke`, {})).status).toBe(200);
      const again = await owner.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {});
      expect((await reader.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(403);
      expect((await reader.client.get(`/api/online-dip/${again.json().shareSlug}`)).status).toBe(403);

      // A share made before the revocation whose share.created reaches dip only afterwards ends with it.
      const late = await h.signedIn({ email: 'late-reader@example.com' });
      await share(dip, 'late-reader@example.com', { createdAt: new Date(Date.now() - 60_000) });
      const fresh = await h.signedIn({ email: 'fresh-reader@example.com' });
      await share(dip, 'fresh-reader@example.com');
      await untilAnswered(
        fresh.client,
        `/api/online-dip/pdf/${dip.quoteCode}`,
        200,
        'the share made after the revocation',
      );
      expect((await late.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(403);
    });

    it('ends the access of whoever came in through the open link when the owner regenerates it', async () => {
      const dip = await newDip();
      const opener = await h.signedIn({ email: 'opened-once@example.com' });
      const linkId = await share(dip, null, { expiresWithDip: true });
      await openLink(dip, linkId, opener.user.userId, 'opened-once@example.com');
      await untilAnswered(opener.client, `/api/online-dip/pdf/${dip.quoteCode}`, 200, 'open-link access');
      const regenerated = await owner.client.post(`/api/online-dip/${dip.dipId}/regenerate-link`, {});
      expect((await opener.client.get(`/api/online-dip/${regenerated.json().shareSlug}`)).status).toBe(403);
      expect((await opener.client.get(`/api/online-dip/pdf/${dip.quoteCode}`)).status).toBe(403);
    });

    it('serves the PDF to its owner by quote code or id, and refuses a malformed reference', async () => {
      const dip = await newDip();
      const byCode = await owner.client.get(`/api/online-dip/pdf/${dip.quoteCode}`);
      expect(byCode.status).toBe(200);
      expect(byCode.text).toContain(dip.quoteCode);
      expect((await owner.client.get(`/api/online-dip/pdf/${dip.dipId}`)).status).toBe(200);
      const bad = await owner.client.get('/api/online-dip/pdf/not-a-reference');
      expect(bad.status).toBe(400);
      expect(bad.json().error).toContain('invalid DIP reference');
      const anonymous = await h.client().get(`/api/online-dip/pdf/${dip.quoteCode}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json().error).toBe('Authentication Required: Please log in to download PDFs.');
    });
  });

  describe('applications', () => {
    const valid = DIP_APPLICATION;

    it("checks the wizard at submit with the spec's messages, and stores nothing on a refusal", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ fullName: '' }, 'Full name is required'],
        [{ email: 'not-an-email' }, 'Valid email is required'],
        [{ phone: '0770' }, 'Valid phone number is required'],
        [{ propertyAddress: ' ' }, 'Property address is required'],
        [{ loanAmount: '' }, 'Loan amount is required'],
        [{ loanTerm: 0 }, 'Loan term is required'],
        [{ loanType: 'mortgage' }, 'Loan type must be bridging, commercial or development'],
      ];
      const before = await h.dipDb.collection('dip_applications').countDocuments();
      for (const [change, message] of cases) {
        const res = await owner.client.post('/api/dip-applications', { ...valid, ...change });
        expect(res.status).toBe(400);
        expect(res.json().error).toBe(message);
      }
      expect(await h.dipDb.collection('dip_applications').countDocuments()).toBe(before);
    });

    it('submits an application, lists it for its owner only, and marks the saved search Application Submitted', async () => {
      const res = await owner.client.post('/api/dip-applications', {
        ...valid,
        userId: owner.user.userId,
        searchId,
      });
      expect(res.status).toBe(201);
      expect(res.json()).toMatchObject({ success: true, status: 'submitted' });
      const stored = await h.dipDb.collection('dip_applications').findOne({ _id: res.json().id });
      expect(stored).toMatchObject({ loanTerm: 18, status: 'submitted', loanAmount: '£950,000' });
      expect(stored?.propertyValue.toString()).toBe('1500000.00');
      expect(stored?.existingDebt).toBeNull();
      const list = await owner.client.get(`/api/applications/${owner.user.userId}`);
      expect(list.json().applications[0]).toMatchObject({
        id: res.json().id,
        property_address: '12 Mill Lane, Leeds',
        loan_amount: 950000,
        status: 'submitted',
      });
      expect((await other.client.get(`/api/applications/${owner.user.userId}`)).status).toBe(403);
      expect((await h.client().get(`/api/applications/${owner.user.userId}`)).status).toBe(401);
      // The dashboard shows the badge at once, whether or not application.submitted has reached search
      // yet: search asks dip, which owns applications.
      const searches = await owner.client.get(`/api/user-searches/${owner.user.userId}`);
      expect(searches.json().find((s: { id: string }) => s.id === searchId)?.application_status).toBe(
        'submitted',
      );
      const result = await owner.client.get(`/api/search-result/${searchId}`);
      expect(result.json().application_status).toBe('submitted');
    });

    it("refuses an application in another user's name", async () => {
      const res = await other.client.post('/api/dip-applications', { ...valid, userId: owner.user.userId });
      expect(res.status).toBe(403);
    });

    it("refuses an application naming another user's saved search, or none, and stores nothing", async () => {
      const counts = async () => [
        await h.dipDb.collection('dip_applications').countDocuments(),
        await h.dipDb.collection('loan_applications').countDocuments(),
      ];
      const before = await counts();
      const loanApplication = { propertyAddress: '3 Quay Street, Bristol', loanAmount: '400,000', term: 12 };
      const theirs = await other.client.post('/api/dip-applications', { ...valid, searchId });
      expect(theirs.status).toBe(403);
      expect(theirs.json()).toEqual({ success: false, error: DIP_MESSAGES.searchAccessDenied });
      const theirLoan = await other.client.post('/api/applications', { ...loanApplication, searchId });
      expect(theirLoan.status).toBe(403);
      const unknown = await owner.client.post('/api/dip-applications', { ...valid, searchId: randomUUID() });
      expect(unknown.status).toBe(404);
      expect(unknown.json()).toEqual({ success: false, error: DIP_MESSAGES.searchNotFound });
      const unknownLoan = await owner.client.post('/api/applications', {
        ...loanApplication,
        searchId: randomUUID(),
      });
      expect(unknownLoan.status).toBe(404);
      expect(await counts()).toEqual(before);
      expect(
        (await outboxOf('application.submitted')).filter((e) => e.data.userId === other.user.userId),
      ).toEqual([]);
      // The owner's own search is taken, by either route.
      expect((await owner.client.post('/api/applications', { ...loanApplication, searchId })).status).toBe(
        201,
      );
    });

    it("stores a loan application ('Continue application') with status 'DIP Submitted'", async () => {
      const res = await owner.client.post('/api/applications', {
        propertyAddress: '3 Quay Street, Bristol',
        loanAmount: '400,000',
        term: 12,
        loanType: 'bridging',
      });
      expect(res.status).toBe(201);
      expect(res.json().status).toBe('DIP Submitted');
      const stored = await h.dipDb.collection('loan_applications').findOne({ _id: res.json().id });
      expect(stored).toMatchObject({ purchaseInLtd: true, status: 'DIP Submitted', term: 12 });
      expect((await owner.client.post('/api/applications', {})).status).toBe(400);
    });
  });
});
