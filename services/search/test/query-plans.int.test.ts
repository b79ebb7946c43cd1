// The plans of search's own reads: each repository method runs against the indexes search creates
// (ensureIndexes, from the mongoose schemas), the find or aggregate it sent is explained as sent,
// and the plan must read through the index meant for it, never the whole collection.
import { PANEL_REPRICING_WINDOW_DAYS, type LoanType } from '@lsp/contracts';
import { Outbox } from '@lsp/service-kit';
import { expectIndexedPlan, startQueryPlans, useHarness } from '@lsp/testing';
import { createRepositories, ensureIndexes } from '../src/app';
import { SEARCH_RUN_COLLECTIONS } from '../src/data/models/search-runs';
import { forEachSavedSearchBatch } from '../src/use-cases/saved-search-batches';

const DAY_MS = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 10, 1);
const LOAN_TYPES: LoanType[] = ['development', 'bridging', 'commercial'];
const searchId = (i: number) => `search-${String(i).padStart(4, '0')}`;

const q = useHarness(() => startQueryPlans('search'));
let repos: ReturnType<typeof createRepositories>;

beforeAll(async () => {
  repos = createRepositories(q.db, await Outbox.open(q.db));
  await ensureIndexes(repos);
  // 400 saved searches of 40 users over 200 days, half of them inside the re-pricing window.
  await q.db.collection('finance_searches').insertMany(
    Array.from({ length: 400 }, (_, i) => ({
      _id: searchId(i),
      user_id: `user-${i % 40}`,
      session_id: `run-${i}`,
      loan_type: LOAN_TYPES[i % 3],
      project_name: `Project ${i}`,
      search_data: { projectName: `Project ${i}` },
      api_response: null,
      result_count: 0,
      application_status: 'not_submitted',
      created_at: new Date(NOW - i * (DAY_MS / 2)),
      updated_at: new Date(NOW - i * (DAY_MS / 2)),
      repricing: null,
    })) as never[],
  );
  for (const loanType of LOAN_TYPES)
    await q.db.collection(SEARCH_RUN_COLLECTIONS[loanType]).insertMany(
      Array.from({ length: 150 }, (_, i) => ({
        _id: `${loanType}-run-${i}`,
        userId: i % 3 === 0 ? null : `user-${i % 40}`,
        requestRef: `req-${i}`,
        panelVersion: 'v1',
        projectName: `Project ${i}`,
        resultCount: 0,
        declinedCount: 0,
        durationMs: 5,
        createdAt: new Date(NOW - i * 60_000),
      })) as never[],
    );
});

describe('saved searches', () => {
  it('a user’s searches, newest first: the walk of user_id_1_created_at_-1, no sort', async () => {
    const read = await q.readOf('finance_searches', () => repos.savedSearches.listForUser('user-7'));
    expectIndexedPlan(await q.planOf(read), { index: 'user_id_1_created_at_-1', sortedByIndex: true });
  });

  it('the user’s search saved from a run, and one search by id', async () => {
    const byRun = await q.readOf('finance_searches', () => repos.savedSearches.findByRun('user-7', 'run-47'));
    expectIndexedPlan(await q.planOf(byRun), { index: 'user_id_1_created_at_-1' });
    const byId = await q.readOf('finance_searches', () => repos.savedSearches.find(searchId(47)));
    expectIndexedPlan(await q.planOf(byId), { index: '_id_' });
  });

  it('the re-pricing window: its count and its walk read the window from created_at_1', async () => {
    const since = new Date(NOW - PANEL_REPRICING_WINDOW_DAYS * DAY_MS);
    const count = await q.readOf('finance_searches', () => repos.savedSearches.countSavedSince(since));
    expectIndexedPlan(await q.planOf(count), { index: 'created_at_1' });
    // The walk hands out the window in id order, so that a stopped run resumes after the last id it
    // committed: no index gives the window in that order, so its documents (and those alone) are sorted.
    for (const from of [null, searchId(120)]) {
      const walk = await q.readOf('finance_searches', () =>
        forEachSavedSearchBatch(
          repos.savedSearches,
          { since, until: new Date(NOW - DAY_MS), from, batchSize: 20 },
          async () => undefined,
        ),
      );
      expectIndexedPlan(await q.planOf(walk), { index: 'created_at_1' });
    }
  });
});

describe('search runs', () => {
  it('a run by id, in the collection of its loan type', async () => {
    for (const loanType of LOAN_TYPES) {
      const read = await q.readOf(SEARCH_RUN_COLLECTIONS[loanType], () =>
        repos.runs.find(loanType, `${loanType}-run-9`),
      );
      expectIndexedPlan(await q.planOf(read), { index: '_id_' });
    }
  });
});
