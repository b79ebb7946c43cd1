import { type CookieClient, unverifiedRefusal, useHarness } from '@lsp/testing';
import { TEXT_PDFS, startDipHarness } from './dip-harness';
import { DIP_APPLICATION } from './fixtures';

jest.setTimeout(60_000);

/**
 * As an IDOR-style matrix over every owner-scoped dip route: the owner in a session
 * whose email is not verified yet is refused with the 403 that offers the resend, and nothing in the
 * dip database changes; the verified owner succeeds; another verified user is refused.
 */
describe('the dip service needs a verified email address', () => {
  const h = useHarness(() => startDipHarness({ pdfs: TEXT_PDFS }));
  let owner: { client: CookieClient; user: { userId: string; email: string; name: string } };
  let unverified: CookieClient;
  let other: CookieClient;
  let searchId: string;

  beforeAll(async () => {
    owner = await h.signedIn({ name: 'Alex Investor' });
    // The same account, in a session opened before the address was verified.
    unverified = (await h.signedIn({ ...owner.user, verified: false })).client;
    other = (await h.signedIn({ name: 'Other Person' })).client;
    searchId = await h.savedSearch(owner.client, owner.user.userId);
  });

  /**
   * Every document of the dip database's own collections, and which events its outbox holds (the
   * relay marks them published and renews its lease in the background, so not those fields).
   */
  async function state(): Promise<string> {
    const background = new Set(['outbox', 'outbox_relay_lease', 'processed_events']);
    const names = (await h.dipDb.db!.listCollections().toArray())
      .map((c) => c.name)
      .filter((name) => !background.has(name))
      .sort();
    const all = await Promise.all(
      names.map(async (name) => [name, await h.dipDb.collection(name).find({}).sort({ _id: 1 }).toArray()]),
    );
    const events = await h.dipDb
      .collection('outbox')
      .find({}, { projection: { eventId: 1 } })
      .toArray();
    return JSON.stringify([all, events.map((e) => e.eventId).sort()]);
  }

  const expectUnverifiedRefused = unverifiedRefusal(state);

  async function newDip() {
    const res = await owner.client.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 });
    expect(res.status).toBe(201);
    const dip = res.json() as { dipId: string; quoteCode: string; shareUrl: string };
    return { ...dip, slug: dip.shareUrl.split('/').pop()! };
  }

  const application = { ...DIP_APPLICATION, additionalInfo: '' };

  it('POST /api/online-dip/create/{searchId}/{loanIndex}', async () => {
    await expectUnverifiedRefused(() =>
      unverified.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 }),
    );
    expect((await other.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 })).status).toBe(403);
    await newDip();
  });

  it('GET /api/online-dip/user/{userId}', async () => {
    await expectUnverifiedRefused(() => unverified.get(`/api/online-dip/user/${owner.user.userId}`));
    expect((await other.get(`/api/online-dip/user/${owner.user.userId}`)).status).toBe(403);
    expect((await owner.client.get(`/api/online-dip/user/${owner.user.userId}`)).status).toBe(200);
  });

  it('GET /api/online-dip/{reference} (owner view by id, online page by slug) and the PDF', async () => {
    const dip = await newDip();
    for (const path of [
      `/api/online-dip/${dip.dipId}`,
      `/api/online-dip/${dip.slug}`,
      `/api/online-dip/pdf/${dip.quoteCode}`,
    ]) {
      await expectUnverifiedRefused(() => unverified.get(path));
      expect((await other.get(path)).status).toBe(403);
      expect((await owner.client.get(path)).status).toBe(200);
    }
  });

  it('POST /api/online-dip/{dipId}/regenerate-link, /expiry and /revoke', async () => {
    const dip = await newDip();
    for (const action of ['regenerate-link', 'expiry', 'revoke']) {
      const path = `/api/online-dip/${dip.dipId}/${action}`;
      await expectUnverifiedRefused(() => unverified.post(path, {}));
      expect((await other.post(path, {})).status).toBe(403);
      expect((await owner.client.post(path, {})).status).toBe(200);
    }
  });

  it('POST /api/dip-applications, POST /api/applications and GET /api/applications/{userId}', async () => {
    const dipApplication = { ...application, userId: owner.user.userId, searchId };
    await expectUnverifiedRefused(() => unverified.post('/api/dip-applications', dipApplication));
    expect((await other.post('/api/dip-applications', dipApplication)).status).toBe(403);
    expect((await owner.client.post('/api/dip-applications', dipApplication)).status).toBe(201);

    const loanApplication = {
      propertyAddress: '3 Quay Street, Bristol',
      loanAmount: '400,000',
      term: 12,
      loanType: 'bridging',
    };
    await expectUnverifiedRefused(() => unverified.post('/api/applications', loanApplication));
    expect((await owner.client.post('/api/applications', loanApplication)).status).toBe(201);

    await expectUnverifiedRefused(() => unverified.get(`/api/applications/${owner.user.userId}`));
    expect((await other.get(`/api/applications/${owner.user.userId}`)).status).toBe(403);
    const list = await owner.client.get(`/api/applications/${owner.user.userId}`);
    expect(list.status).toBe(200);
    expect(list.json().applications.length).toBeGreaterThan(0);
  });
});
