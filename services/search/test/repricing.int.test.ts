import { randomUUID } from 'node:crypto';
import { PANEL_REPRICING_WINDOW_DAYS, searchRepricedEventSchema } from '@lsp/contracts';
import { createQueue } from '@lsp/service-kit';
import { type CookieClient, silentLogger, useHarness, waitFor } from '@lsp/testing';
import { savedSearchModel } from '../src/data/models/saved-searches';
import { RepricingRepository } from '../src/data/repricings';
import { SavedSearchRepository } from '../src/data/saved-searches';
import { type Panel, loadDefaultPanel } from '../src/panel';
import {
  REPRICING_QUEUE,
  type RepricingJob,
  queueRepricing,
  repriceSavedSearches,
  startRepricingWorker,
} from '../src/use-cases/repricing-job';
import {
  BRIDGING_PAYLOAD,
  envelopeOf,
  halfRatesPanel,
  runAndSaveSearch,
  startSearchHarness,
} from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

const base = loadDefaultPanel();
const DAY_MS = 24 * 3600 * 1000;

describe('re-pricing saved searches after a panel activation', () => {
  const h = useHarness(startSearchHarness);
  let borrower: CookieClient;
  let borrowerId: string;
  let repricings: RepricingRepository;
  let savedSearches: SavedSearchRepository;
  let best: { LenderId: string; ProductId: string; NetLoan: number; InterestRate: number };

  /** Saves the bridging deal for the borrower, as the home page does after a search. */
  async function saveSearch(projectName: string): Promise<string> {
    const { id } = await runAndSaveSearch(
      borrower,
      borrowerId,
      { ...BRIDGING_PAYLOAD, projectName },
      'bridging',
    );
    return id;
  }

  /** The shipped panel with the deal's best product at half its rates. */
  const cheaper = (version: string) => halfRatesPanel(base, version, best.LenderId, best.ProductId);

  /** Stores and activates a panel, and returns the re-pricing job its panel.activated asks for. */
  async function activate(panel: Panel): Promise<RepricingJob> {
    await h.panels.storeDraft(panel, { operator: 'oncall@example.com', source: 'test' });
    const activation = await h.panels.activateVersion(panel.version, 'oncall@example.com');
    return {
      version: activation.version,
      previousVersion: activation.previousVersion!,
      activatedAt: activation.activatedAt,
    };
  }

  const repricedEvents = async () =>
    (await h.outboxEntries('search.repriced')).map((e) =>
      searchRepricedEventSchema.parse(envelopeOf(e).data),
    );

  beforeAll(async () => {
    const signedIn = await h.signedIn();
    borrower = signedIn.client;
    borrowerId = signedIn.user.userId;
    repricings = new RepricingRepository(h.mongo, h.outbox);
    savedSearches = new SavedSearchRepository(h.mongo, h.outbox);
    [best] = (await borrower.post('/api/bridging', BRIDGING_PAYLOAD)).json().data.Results;
  });

  it('re-prices each search of the window in batches, records the change and publishes search.repriced once, resuming after a kill', async () => {
    const ids = [await saveSearch('One'), await saveSearch('Two'), await saveSearch('Three')];
    // Saved 91 days ago: outside the window, never re-priced.
    const old = await saveSearch('Old');
    await savedSearchModel(h.mongo).updateOne(
      { _id: old },
      { $set: { created_at: new Date(Date.now() - (PANEL_REPRICING_WINDOW_DAYS + 1) * DAY_MS) } },
    );
    const job = await activate(cheaper(`2027-r-${randomUUID().slice(0, 6)}`));
    const deps = { panels: h.panels, savedSearches, repricings, batchSize: 1 };

    // The worker dies after its first batch: one search recorded and published, the rest not.
    await expect(
      repriceSavedSearches(job, {
        ...deps,
        afterBatch: () => {
          throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    expect(await repricedEvents()).toHaveLength(1);

    // Run again (the job is retried): it resumes after the committed batch.
    const run = await repriceSavedSearches(job, deps);
    expect(run).toMatchObject({ status: 'done', done: 3, changed: 3 });
    const events = await repricedEvents();
    expect(events.map((e) => e.searchId).sort()).toEqual([...ids].sort());
    expect(events[0]).toMatchObject({
      userId: borrowerId,
      loanType: 'bridging',
      panelVersion: job.version,
      previousVersion: job.previousVersion,
      marker: 'Terms changed',
      betterBest: true,
      offersGained: 0,
      offersLost: 0,
      bestBefore: { netLoan: best.NetLoan, interestRate: best.InterestRate },
    });
    expect(events[0].bestAfter!.interestRate).toBeLessThan(best.InterestRate);

    // A redelivered job finds its run done: nothing recorded or published again.
    expect(await repriceSavedSearches(job, deps)).toMatchObject({ status: 'done', done: 3 });
    expect(await repricedEvents()).toHaveLength(3);
    for (const id of ids) expect(await repricings.recordsOf(id)).toHaveLength(1);
    expect(await repricings.recordsOf(old)).toHaveLength(0);

    // The borrower sees the change on their saved search.
    const listed = (await borrower.get(`/api/user-searches/${borrowerId}`)).json() as Array<{
      id: string;
      repricing: unknown;
    }>;
    expect(listed.find((s) => s.id === ids[0])?.repricing).toMatchObject({
      marker: 'Terms changed',
      panelVersion: job.version,
      betterBest: true,
    });
    expect(listed.find((s) => s.id === old)?.repricing).toBeNull();
    expect((await borrower.get(`/api/search-result/${ids[1]}`)).json().repricing).toMatchObject({
      panelVersion: job.version,
    });

    await h.panels.activateVersion(base.version, 'oncall@example.com');
  });

  it('queues one job per activation however often panel.activated is delivered, and the worker runs it', async () => {
    const prefix = `reprice-${randomUUID().slice(0, 8)}`;
    const queue = createQueue<RepricingJob>(REPRICING_QUEUE, h.redisUrl, prefix);
    const worker = startRepricingWorker({
      panels: h.panels,
      savedSearches,
      repricings,
      batchSize: 20,
      redisUrl: h.redisUrl,
      prefix,
      logger: silentLogger(),
    });
    try {
      const id = await saveSearch('Queued');
      const job = await activate(cheaper(`2027-q-${randomUUID().slice(0, 6)}`));
      await queueRepricing(queue, job);
      await queueRepricing(queue, job);
      const counts = await queue.getJobCounts('waiting', 'active', 'completed', 'delayed');
      expect(counts.waiting + counts.active + counts.completed + counts.delayed).toBe(1);
      await waitFor(
        async () => (await queue.getJobCounts('completed')).completed === 1,
        'the re-pricing job',
      );
      expect((await repricings.recordsOf(id)).map((r) => r.panelVersion)).toEqual([job.version]);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await h.panels.activateVersion(base.version, 'oncall@example.com').catch(() => undefined);
    }
  });
});
