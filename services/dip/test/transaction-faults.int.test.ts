// The failures MongoDB's drivers are built to survive, injected with the failCommand fail point into
// dip's own writes: a DIP stored with its dip.created, an application with its application.submitted,
// and the saved search dip records when it asks search for one. Each is asked for once through the
// gateway, as the browser would, and must answer as it would have without the fault, leaving one
// document and one event published once.
import type { EventEnvelope } from '@lsp/contracts';
import { type CookieClient, FAULTS, type FailCommandData, useFailCommand, useHarness } from '@lsp/testing';
import { TEXT_PDFS, startDipHarness } from './dip-harness';
import { DIP_APPLICATION } from './fixtures';

describe('dip’s transactions under injected faults', () => {
  const h = useHarness(() => startDipHarness({ pdfs: TEXT_PDFS, testCommands: true }));
  const faults = useFailCommand(() => h.dipDb, { settle: () => h.outbox.drain() });

  /** A new owner with a search of their own saved, so each test counts its own documents only. */
  async function ownerWithSearch() {
    const owner = await h.signedIn();
    return { ...owner, searchId: await h.savedSearch(owner.client, owner.user.userId) };
  }

  /** The owner's events of one type in dip's outbox, each published at commit (handed on to the bus). */
  async function publishedEvents(type: string, userId: string, field: 'ownerUserId' | 'userId') {
    const entries = await h.dipDb.collection('outbox').find({ type }).toArray();
    const mine = entries
      .map((entry) => JSON.parse(entry.payload as string) as EventEnvelope<Record<string, unknown>>)
      .filter((event) => event.data[field] === userId);
    expect(await h.outbox.handedOn(mine.map((event) => event.id))).toBe(true);
    return mine;
  }

  describe('a DIP created from an offer', () => {
    async function createThrough(fault: FailCommandData, client: CookieClient, searchId: string) {
      await faults.failNext(fault);
      const res = await client.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 });
      expect(res.status).toBe(201);
      return res.json() as { ok: true; dipId: string; quoteCode: string; shareUrl: string };
    }

    /** One DIP for the owner, the one answered, and one dip.created for it, published. */
    async function expectOneDip(userId: string, answer: { dipId: string; quoteCode: string }) {
      const dips = await h.dipDb.collection('online_dips').find({ userId }).toArray();
      expect(dips.map((d) => [d._id, d.quoteCode])).toEqual([[answer.dipId, answer.quoteCode]]);
      const created = await publishedEvents('dip.created', userId, 'ownerUserId');
      expect(created.map((e) => e.subject)).toEqual([answer.dipId]);
    }

    it('a transient error on its insert: the transaction runs again, one DIP, one dip.created', async () => {
      const { client, user, searchId } = await ownerWithSearch();
      const answer = await createThrough(FAULTS.transientErrorOn('insert'), client, searchId);
      expect(faults.failed('insert', 'online_dips')).toBe(1);
      expect(faults.sent('insert', 'online_dips')).toBe(2);
      expect(faults.sent('abortTransaction')).toBe(1);
      await expectOneDip(user.userId, answer);
    });

    it('a commit whose result is unknown: the commit is sent again, one DIP, one dip.created', async () => {
      const { client, user, searchId } = await ownerWithSearch();
      const answer = await createThrough(FAULTS.unknownCommitResult, client, searchId);
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'online_dips')).toBe(1);
      await expectOneDip(user.userId, answer);
    });

    it('a commit applied but not confirmed: committed again without a second DIP', async () => {
      const { client, user, searchId } = await ownerWithSearch();
      const answer = await createThrough(FAULTS.appliedCommitUnconfirmed, client, searchId);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'online_dips')).toBe(1);
      await expectOneDip(user.userId, answer);
    });

    it('a network error on recording a search dip had to ask search for: retried, one record, one DIP', async () => {
      const { client, user, searchId } = await ownerWithSearch();
      // As if search.saved were still on its way: dip asks search and records what it answers, a
      // retryable write outside any transaction.
      await h.dipDb.collection('saved_searches').deleteOne({ _id: searchId as never });
      const answer = await createThrough(FAULTS.networkErrorOn('update'), client, searchId);
      expect(faults.failed('update', 'saved_searches')).toBe(1);
      expect(faults.sent('update', 'saved_searches')).toBe(2);
      expect(await h.dipDb.collection('saved_searches').countDocuments({ _id: searchId as never })).toBe(1);
      await expectOneDip(user.userId, answer);
    });
  });

  describe('a DIP application submitted', () => {
    async function submitThrough(fault: FailCommandData) {
      const { client, user, searchId } = await ownerWithSearch();
      await faults.failNext(fault);
      const res = await client.post('/api/dip-applications', {
        ...DIP_APPLICATION,
        userId: user.userId,
        searchId,
      });
      expect(res.status).toBe(201);
      const answer = res.json() as { success: true; id: string; status: string };
      expect(answer).toEqual({ success: true, id: expect.any(String), status: 'submitted' });
      const stored = await h.dipDb.collection('dip_applications').find({ userId: user.userId }).toArray();
      expect(stored.map((a) => a._id)).toEqual([answer.id]);
      const submitted = await publishedEvents('application.submitted', user.userId, 'userId');
      expect(submitted.map((e) => e.subject)).toEqual([answer.id]);
    }

    it('a transient error on its insert: the transaction runs again, one application, one event', async () => {
      await submitThrough(FAULTS.transientErrorOn('insert'));
      expect(faults.failed('insert', 'dip_applications')).toBe(1);
      expect(faults.sent('insert', 'dip_applications')).toBe(2);
    });

    it('a commit whose result is unknown: the commit is sent again, one application, one event', async () => {
      await submitThrough(FAULTS.unknownCommitResult);
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'dip_applications')).toBe(1);
    });
  });
});
