import { type CookieClient, unverifiedRefusal, useHarness } from '@lsp/testing';
import { startSharingHarness } from './sharing-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

/**
 * As an IDOR-style matrix over every recipient- or owner-scoped sharing route: the
 * caller whose email is not verified (the same account, in a session opened before verifying) is
 * refused with the 403 that offers the resend and nothing changes; the verified owner or recipient
 * succeeds; another verified user is refused (or sees nothing of it).
 */
describe('sharing needs a verified email address', () => {
  const h = useHarness(startSharingHarness);

  /** Everything a sharing call could change: its collections and the events it writes. */
  async function state(): Promise<string> {
    const c = h.collections;
    const all = await Promise.all(
      [c.dipShares, c.recipientShares, c.sharedDeals, c.referrals].map((collection) =>
        (collection as typeof c.dipShares).find({}).sort({ _id: 1 }).toArray(),
      ),
    );
    return JSON.stringify([all, (await h.outboxEvents()).length]);
  }

  const expectUnverifiedRefused = unverifiedRefusal(state);

  interface World {
    owner: { client: CookieClient; userId: string };
    ownerUnverified: CookieClient;
    recipient: CookieClient;
    recipientUnverified: CookieClient;
    intruder: CookieClient;
    dipId: string;
    shareId: string;
    /** The targeted link's API path, and the open link's. */
    targetedPath: string;
    openPath: string;
  }

  /** An owner with a DIP shared to a recipient by email and by an open link; each has an unverified twin session. */
  async function world(): Promise<World> {
    const owner = await h.signedIn({ name: 'Olivia Owner' });
    const ownerUnverified = await h.signedIn({ ...owner.user, verified: false });
    const email = `rita-${Date.now()}@example.co.uk`;
    const recipient = await h.signedIn({ email, name: 'Rita Recipient' });
    const recipientUnverified = await h.signedIn({ ...recipient.user, verified: false });
    const intruder = await h.signedIn({ email: `ivan-${Date.now()}@example.co.uk` });
    const dip = await h.createDip(owner.user);
    const shared = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
      recipients: [email],
      message: 'Have a look',
    });
    expect(shared.status).toBe(201);
    const shareId = shared.json().results[0].shareId as string;
    const created = (await h.outboxEvents('share.created')).filter((e) => e.data.shareId === shareId).at(-1);
    const link = new URL(created!.data.shareUrl as string);
    const open = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' });
    expect(open.status).toBe(200);
    const openLink = new URL(open.json().url as string);
    const apiPath = (url: URL) => `/api/online-dip/shared/${url.pathname.split('/').at(-1)}${url.search}`;
    return {
      owner: { client: owner.client, userId: owner.user.userId },
      ownerUnverified: ownerUnverified.client,
      recipient: recipient.client,
      recipientUnverified: recipientUnverified.client,
      intruder: intruder.client,
      dipId: dip.dipId,
      shareId,
      targetedPath: apiPath(link),
      openPath: apiPath(openLink),
    };
  }

  it('POST /api/online-dip/{dipId}/share (email and open link): owner only, verified', async () => {
    const w = await world();
    const email = { recipients: ['someone@example.co.uk'], message: 'Hi' };
    await expectUnverifiedRefused(() => w.ownerUnverified.post(`/api/online-dip/${w.dipId}/share`, email));
    await expectUnverifiedRefused(() =>
      w.ownerUnverified.post(`/api/online-dip/${w.dipId}/share`, { inviteType: 'open' }),
    );
    expect((await w.owner.client.post(`/api/online-dip/${w.dipId}/share`, email)).status).toBe(201);
    expect((await w.intruder.post(`/api/online-dip/${w.dipId}/share`, email)).status).toBe(403);
  });

  it('GET /api/online-dip/{dipId}/shares and POST …/shares/{shareId}/revoke: owner only, verified', async () => {
    const w = await world();
    const list = `/api/online-dip/${w.dipId}/shares`;
    const revoke = `/api/online-dip/${w.dipId}/shares/${w.shareId}/revoke`;
    await expectUnverifiedRefused(() => w.ownerUnverified.get(list));
    await expectUnverifiedRefused(() => w.ownerUnverified.post(revoke, {}));
    expect((await w.intruder.get(list)).status).toBe(403);
    expect((await w.recipient.post(revoke, {})).status).toBe(403);
    expect((await w.owner.client.get(list)).status).toBe(200);
    expect((await w.owner.client.post(revoke, {})).status).toBe(200);
  });

  it('GET /api/online-dip/shared/{slug}: the targeted link opens for the verified recipient only', async () => {
    const w = await world();
    await expectUnverifiedRefused(() => w.recipientUnverified.get(w.targetedPath));
    expect((await w.recipient.get(w.targetedPath)).status).toBe(200);
    expect((await w.intruder.get(w.targetedPath)).status).toBe(403);
  });

  it('GET /api/online-dip/shared/{slug}: the open link needs a verified address too (it lands in Shared with me)', async () => {
    const w = await world();
    await expectUnverifiedRefused(() => w.recipientUnverified.get(w.openPath));
    expect((await w.recipient.get(w.openPath)).status).toBe(200);
  });

  it('GET /api/shared and /api/shared/unread-count: the verified recipient’s list; nothing before verifying', async () => {
    const w = await world();
    await expectUnverifiedRefused(() => w.recipientUnverified.get('/api/shared'));
    await expectUnverifiedRefused(() => w.recipientUnverified.get('/api/shared/unread-count'));
    const list = await w.recipient.get('/api/shared');
    expect(list.status).toBe(200);
    expect(list.json().items.map((i: { shareId: string }) => i.shareId)).toContain(w.shareId);
    expect((await w.recipient.get('/api/shared/unread-count')).json().count).toBeGreaterThan(0);
    expect((await w.intruder.get('/api/shared')).json().items).toEqual([]);
    expect((await w.intruder.get('/api/shared/unread-count')).json().count).toBe(0);
  });

  it('POST /api/shared/{shareId}/mark-viewed and GET /api/shared/dips/{id}: verified recipient only', async () => {
    const w = await world();
    await expectUnverifiedRefused(() => w.recipientUnverified.post(`/api/shared/${w.shareId}/mark-viewed`));
    await expectUnverifiedRefused(() => w.recipientUnverified.get(`/api/shared/dips/${w.dipId}`));
    expect((await w.intruder.post(`/api/shared/${w.shareId}/mark-viewed`)).status).toBe(403);
    expect((await w.intruder.get(`/api/shared/dips/${w.dipId}`)).status).toBe(403);
    expect((await w.recipient.get(`/api/shared/dips/${w.dipId}`)).status).toBe(200);
    expect((await w.recipient.post(`/api/shared/${w.shareId}/mark-viewed`)).status).toBe(200);
  });

  it('POST /api/referrals/deal-share: the verified referrer only', async () => {
    const w = await world();
    const deal = {
      referralEmail: 'friend@example.co.uk',
      referrerId: w.owner.userId,
      ...(await h.searchOffer(w.owner.client)).deal,
      note: 'Have a look',
    };
    await expectUnverifiedRefused(() => w.ownerUnverified.post('/api/referrals/deal-share', deal));
    expect((await w.intruder.post('/api/referrals/deal-share', deal)).status).toBe(403);
    expect((await w.owner.client.post('/api/referrals/deal-share', deal)).status).toBe(201);
  });

  it('POST /api/referrals: verified callers only', async () => {
    const w = await world();
    const referral = { referrerName: 'Olivia', referralEmail: 'pal@example.co.uk', message: 'Try it' };
    await expectUnverifiedRefused(() => w.ownerUnverified.post('/api/referrals', referral));
    expect((await w.owner.client.post('/api/referrals', referral)).status).toBe(201);
  });
});
