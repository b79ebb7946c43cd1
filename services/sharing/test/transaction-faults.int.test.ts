// The failures MongoDB's drivers are built to survive, injected with the failCommand fail point into
// sharing's own writes: a DIP shared by email with its share.created (the email goes out from it), a
// deal shared by email with its deal.shared, and the entry kept for someone opening a DIP's open
// link (a retryable write outside any transaction). Each is asked for once through the gateway, as
// the browser would, and must answer as it would have without the fault, leaving one share and one
// event published once.
import type { EventEnvelope } from '@lsp/contracts';
import { FAULTS, type FailCommandData, useFailCommand, useHarness } from '@lsp/testing';
import { startSharingHarness } from './sharing-harness';

describe('sharing’s transactions under injected faults', () => {
  const h = useHarness(() => startSharingHarness({}, {}, { testCommands: true }));
  const faults = useFailCommand(() => h.mongo, { settle: () => h.outbox.drain() });
  /** Every event sharing's outbox published at commit, in order: a duplicate would show twice. */
  const published: EventEnvelope[] = [];

  beforeAll(() => {
    // As the sharing process does: a share's email is handed on at commit, or the owner is told.
    h.outbox.publishAtCommit({ bus: { publish: async (event) => void published.push(event) } });
  });
  beforeEach(() => {
    h.clock.now = new Date();
  });

  /** The outbox's events of one type matching `mine`, each published exactly once at commit. */
  async function publishedOnce(type: string, mine: (data: Record<string, unknown>) => boolean) {
    const events = (await h.outboxEvents(type)).filter((event) => mine(event.data));
    const ids = events.map((event) => event.id);
    await h.outbox.drain();
    expect(published.filter((event) => ids.includes(event.id)).map((event) => event.id)).toEqual(ids);
    return events;
  }

  describe('a DIP shared by email', () => {
    /**
     * Arms `fault` as the share's transaction writes its events, just before its commit: the route
     * first brings sharing's copy of the DIP up to the owner's in a transaction of its own, whose
     * commit a commit fault armed earlier would strike instead.
     */
    function armedAtTheSharesEvents(fault: FailCommandData) {
      const add = h.outbox.add.bind(h.outbox);
      h.outbox.add = async (events, session) => {
        h.outbox.add = add;
        await faults.failNext(fault);
        return add(events, session);
      };
      return () => {
        h.outbox.add = add;
      };
    }

    async function shareThrough(fault: FailCommandData, at: 'first' | 'commit' = 'first') {
      const owner = await h.signedIn({ name: 'Olivia Owner' });
      const dip = await h.createDip(owner.user);
      const disarm = at === 'commit' ? armedAtTheSharesEvents(fault) : () => undefined;
      if (at === 'first') await faults.failNext(fault);
      const res = await owner.client
        .post(`/api/online-dip/${dip.dipId}/share`, {
          recipients: ['ann@example.co.uk'],
          message: 'For your review',
        })
        .finally(disarm);
      // 201, not the 503 that offers the open link instead: the email was handed on.
      expect(res.status).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ success: true, sent: 1, failed: 0 });
      const shareId = body.results[0].shareId as string;
      const links = await h.collections.dipShares.find({ dipId: dip.dipId }).toArray();
      expect(links.map((link) => [link._id, link.recipientEmail])).toEqual([[shareId, 'ann@example.co.uk']]);
      const entries = await h.collections.recipientShares.find({ dipId: dip.dipId }).toArray();
      expect(entries.map((entry) => entry.email)).toEqual(['ann@example.co.uk']);
      const created = await publishedOnce('share.created', (data) => data.dipId === dip.dipId);
      expect(created.map((event) => event.data.shareId)).toEqual([shareId]);
    }

    it('a transient error on its write: the transaction runs again, one share, one share.created', async () => {
      await shareThrough(FAULTS.transientErrorOn('update'));
      expect(faults.failed('update', 'dip_shares')).toBe(1);
      expect(faults.sent('update', 'dip_shares')).toBe(2);
      expect(faults.sent('abortTransaction')).toBe(1);
    });

    // Counted from the arming, within the transaction: a run of its body again would write the share
    // again after it.
    it('a commit whose result is unknown: the commit is sent again, one share, one share.created', async () => {
      await shareThrough(FAULTS.unknownCommitResult, 'commit');
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('update', 'dip_shares')).toBe(0);
    });

    it('a commit applied but not confirmed: committed again without a second share', async () => {
      await shareThrough(FAULTS.appliedCommitUnconfirmed, 'commit');
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('update', 'dip_shares')).toBe(0);
    });
  });

  describe('a deal shared by email', () => {
    async function shareDealThrough(fault: FailCommandData) {
      const referrer = await h.signedIn({ name: 'Rob Referrer' });
      const { deal } = await h.searchOffer(referrer.client);
      await faults.failNext(fault);
      const res = await referrer.client.post('/api/referrals/deal-share', {
        referralEmail: 'friend@example.co.uk',
        referrerId: referrer.user.userId,
        note: 'Have a look',
        ...deal,
      });
      expect(res.status).toBe(201);
      const { success, signupToken } = res.json();
      expect(success).toBe(true);
      const deals = await h.collections.sharedDeals.find({ referrerId: referrer.user.userId }).toArray();
      expect(deals.map((stored) => stored.signupToken)).toEqual([signupToken]);
      const shared = await publishedOnce('deal.shared', (data) => data.referrerId === referrer.user.userId);
      expect(shared.map((event) => event.data.dealId)).toEqual([deals[0]._id]);
    }

    it('a transient error on its insert: the transaction runs again, one deal, one deal.shared', async () => {
      await shareDealThrough(FAULTS.transientErrorOn('insert'));
      expect(faults.failed('insert', 'shared_deals')).toBe(1);
      expect(faults.sent('insert', 'shared_deals')).toBe(2);
      expect(faults.sent('abortTransaction')).toBe(1);
    });

    it('a commit whose result is unknown: the commit is sent again, one deal, one deal.shared', async () => {
      await shareDealThrough(FAULTS.unknownCommitResult);
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'shared_deals')).toBe(1);
    });
  });

  it('a network error on keeping the entry of someone opening the open link: sent again, one entry', async () => {
    const owner = await h.signedIn();
    const dip = await h.createDip(owner.user);
    const link = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' });
    expect(link.status).toBe(200);
    const url = new URL(link.json().url);
    const opener = await h.signedIn();
    await faults.failNext(FAULTS.networkErrorOn('update'));
    const opened = await opener.client.get(`/api/online-dip/shared/${dip.shareSlug}${url.search}`);
    expect(opened.status).toBe(200);
    expect(opened.json()).toMatchObject({ accessMethod: 'open-link' });
    expect(faults.failed('update', 'online_dip_shares')).toBe(1);
    // The entry's upsert twice, then its first view marked (in share.viewed's transaction).
    expect(faults.sent('update', 'online_dip_shares')).toBe(3);
    const entries = await h.collections.recipientShares.find({ dipId: dip.dipId }).toArray();
    expect(entries.map((entry) => [entry.email, entry.recipientUserId])).toEqual([
      [opener.user.email, opener.user.userId],
    ]);
    const viewed = await publishedOnce('share.viewed', (data) => data.dipId === dip.dipId);
    expect(viewed.map((event) => event.data.recipientUserId)).toEqual([opener.user.userId]);
  });
});
