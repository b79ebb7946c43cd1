// The failures MongoDB's drivers are built to survive, injected with the failCommand fail point into
// search's own writes: a search run recorded with its lead and their events, a search saved with its
// search.saved, and a saved search renamed (a retryable write outside any transaction). Each is
// asked for once through the gateway, as the browser would, and must answer as it would have without
// the fault, leaving one document and one outbox entry for it.
import { FAULTS, type FailCommandData, useFailCommand, useHarness } from '@lsp/testing';
import { leadModel } from '../src/data/models/leads';
import { savedSearchModel } from '../src/data/models/saved-searches';
import { searchRunModels } from '../src/data/models/search-runs';
import {
  DEVELOPMENT_PAYLOAD,
  LEAD,
  envelopeOf,
  runAndSaveSearch,
  startSearchHarness,
} from './search-harness';

describe('search’s transactions under injected faults', () => {
  const h = useHarness(() => startSearchHarness({ testCommands: true }));
  const faults = useFailCommand(() => h.mongo, { settle: () => h.outbox.drain() });

  /** The outbox entries of one type about one subject, as the events they publish. */
  const eventsAbout = async (type: string, subject: string) =>
    (await h.outboxEntries(type)).map(envelopeOf).filter((event) => event.subject === subject);

  let counter = 0;

  describe('a search run with a lead', () => {
    async function runThrough(fault: FailCommandData) {
      // Names of their own, so each test counts only what it made.
      const projectName = `Faults ${++counter}`;
      const lead = { ...LEAD, email: `lead${counter}@example.co.uk` };
      await faults.failNext(fault);
      const res = await h.client().post('/api/development', { ...DEVELOPMENT_PAYLOAD, projectName, lead });
      expect(res.status).toBe(200);
      const { SearchRunId: runId, Results: offers, LendabilityScore: score } = res.json().data;
      expect(offers.length).toBeGreaterThan(0);
      expect(score.score).toBeGreaterThan(0);
      const runs = await searchRunModels(h.mongo).development.find({ projectName }).lean();
      expect(runs.map((run) => run._id)).toEqual([runId]);
      const leads = await leadModel(h.mongo).find({ email: lead.email }).lean();
      expect(leads.map((stored) => stored.searchRunId)).toEqual([runId]);
      expect(await eventsAbout('search.completed', runId)).toHaveLength(1);
      expect(await eventsAbout('lead.captured', leads[0]._id)).toHaveLength(1);
    }

    it('a transient error on its insert: the transaction runs again, one run, one lead, one of each event', async () => {
      await runThrough(FAULTS.transientErrorOn('insert'));
      expect(faults.failed('insert', 'development_searches')).toBe(1);
      expect(faults.sent('insert', 'development_searches')).toBe(2);
      expect(faults.sent('insert', 'leads')).toBe(1);
      expect(faults.sent('abortTransaction')).toBe(1);
    });

    it('a commit whose result is unknown: the commit is sent again, one run, one lead, one of each event', async () => {
      await runThrough(FAULTS.unknownCommitResult);
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'development_searches')).toBe(1);
    });
  });

  describe('a search saved', () => {
    async function saveThrough(fault: FailCommandData) {
      const { client, user } = await h.signedIn({ userId: `saver-${++counter}` });
      const run = await client.post('/api/development', { ...DEVELOPMENT_PAYLOAD, userId: user.userId });
      expect(run.status).toBe(200);
      await faults.failNext(fault);
      const res = await client.post('/api/search', {
        userId: user.userId,
        loanType: 'development',
        searchData: DEVELOPMENT_PAYLOAD,
        apiResponse: run.json(),
      });
      expect(res.status).toBe(201);
      const { search } = res.json();
      expect(search).toMatchObject({ userId: user.userId, loanType: 'development' });
      const saved = await savedSearchModel(h.mongo).find({ user_id: user.userId }).lean();
      expect(saved.map((s) => [s._id, s.session_id])).toEqual([[search.id, run.json().data.SearchRunId]]);
      expect(await eventsAbout('search.saved', search.id)).toHaveLength(1);
    }

    it('a transient error on its insert: the transaction runs again, one saved search, one search.saved', async () => {
      await saveThrough(FAULTS.transientErrorOn('insert'));
      expect(faults.failed('insert', 'finance_searches')).toBe(1);
      expect(faults.sent('insert', 'finance_searches')).toBe(2);
      expect(faults.sent('abortTransaction')).toBe(1);
    });

    it('a commit whose result is unknown: the commit is sent again, one saved search, one search.saved', async () => {
      await saveThrough(FAULTS.unknownCommitResult);
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'finance_searches')).toBe(1);
    });

    it('a commit applied but not confirmed: committed again without a second saved search', async () => {
      await saveThrough(FAULTS.appliedCommitUnconfirmed);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'finance_searches')).toBe(1);
    });
  });

  it('a network error on renaming a saved search: the write is sent again and the name kept', async () => {
    const { client, user } = await h.signedIn({ userId: `renamer-${++counter}` });
    const { id } = await runAndSaveSearch(client, user.userId);
    await faults.failNext(FAULTS.networkErrorOn('findAndModify'));
    const res = await client.request('PUT', '/api/search/project-name', {
      body: { searchId: id, loanType: 'development', projectName: 'Riverside Mews phase 2' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      search: { id, project_name: 'Riverside Mews phase 2' },
    });
    expect(faults.failed('findAndModify', 'finance_searches')).toBe(1);
    expect(faults.sent('findAndModify', 'finance_searches')).toBe(2);
    const saved = await savedSearchModel(h.mongo).find({ user_id: user.userId }).lean();
    expect(saved.map((s) => [s._id, s.project_name])).toEqual([[id, 'Riverside Mews phase 2']]);
  });
});
