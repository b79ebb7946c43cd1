import { PANEL_REPRICING_WINDOW_DAYS, type PanelActivatedEvent, SEARCH_EVENTS } from '@lsp/contracts';
import { type Logger, createWorker, enqueue } from '@lsp/service-kit';
import type { Queue, Worker } from 'bullmq';
import type { PanelStore } from '../data/panel-store';
import type { RepricedSearch, RepricingRepository } from '../data/repricings';
import type { SavedSearchRepository } from '../data/saved-searches';
import { repriceSavedSearch, repricingChanged, repricingOf } from './repricing';
import { forEachSavedSearchBatch } from './saved-search-batches';

export const REPRICING_QUEUE = 'repricing';
const DAY_MS = 24 * 3600 * 1000;

/** One activation to re-price the saved searches for: the job's data. */
export type RepricingJob = Pick<PanelActivatedEvent, 'version' | 'activatedAt'> & { previousVersion: string };

/** A run per activation: a rollback to a version re-prices again, a redelivered event does not. */
export const repricingRunId = (job: RepricingJob) => `${job.version}@${job.activatedAt}`;

export interface RepricingDeps {
  panels: Pick<PanelStore, 'readVersion'>;
  savedSearches: Pick<SavedSearchRepository, 'savedSince'>;
  repricings: RepricingRepository;
  /** Saved searches per committed batch (REPRICING_BATCH_SIZE). */
  batchSize: number;
  /** The share of time spent re-pricing between rests (REPRICING_DUTY_CYCLE; SavedSearchWalk.dutyCycle). */
  dutyCycle?: number;
  now?: () => Date;
  /** Called after each committed batch (the worker reports progress; a test stops a run there). */
  afterBatch?: (done: number) => Promise<void> | void;
}

/**
 * Re-prices every search saved in the 90 days before an activation against the new panel, compared
 * with the panel before it, in batches that each commit whole (see RepricingRepository.commitBatch).
 * Resumes from the last committed batch when run again for the same activation; a finished run is
 * not repeated. Searches saved after the activation were priced on the new panel: left out.
 */
export async function repriceSavedSearches(job: RepricingJob, deps: RepricingDeps) {
  const runId = repricingRunId(job);
  const { repricings } = deps;
  const run = await repricings.openRun(runId, job.version, job.previousVersion);
  if (run.status === 'done') return run;
  const [before, after] = await Promise.all([
    deps.panels.readVersion(job.previousVersion),
    deps.panels.readVersion(job.version),
  ]);
  if (!before || !after) throw new Error(`panel ${before ? job.version : job.previousVersion} is not stored`);
  const until = new Date(job.activatedAt);
  const since = new Date(until.getTime() - PANEL_REPRICING_WINDOW_DAYS * DAY_MS);
  const versions = { panelVersion: job.version, previousVersion: job.previousVersion };
  let done = run.done;
  const window = {
    since,
    until,
    from: run.cursor,
    batchSize: deps.batchSize,
    dutyCycle: deps.dutyCycle,
  };
  await forEachSavedSearchBatch(deps.savedSearches, window, async (batch, cursor) => {
    const repricedAt = deps.now?.() ?? new Date();
    const changed: RepricedSearch[] = [];
    for (const search of batch) {
      const moved = repriceSavedSearch(search, before, after);
      if (!moved || !repricingChanged(moved)) continue;
      const repricing = repricingOf(moved, versions, repricedAt);
      changed.push({
        searchId: search._id,
        userId: search.user_id,
        repricing,
        event: SEARCH_EVENTS.repriced.envelope({
          ...repricing,
          searchId: search._id,
          userId: search.user_id,
          loanType: search.loan_type,
          projectName: search.project_name ?? null,
        }),
      });
    }
    await repricings.commitBatch(runId, batch.length, cursor, changed);
    done += batch.length;
    await deps.afterBatch?.(done);
  });
  await repricings.finishRun(runId);
  return (await repricings.findRun(runId))!;
}

/** Queues the re-pricing of an activation; the job id makes a redelivered event add it once. */
export async function queueRepricing(queue: Queue<RepricingJob>, job: RepricingJob) {
  return enqueue(queue, 'reprice', job, `reprice-${repricingRunId(job)}`.replace(/:/g, '-'));
}

/** The worker: one job at a time, so re-pricing never takes more than one core from the machine. */
export function startRepricingWorker(
  deps: RepricingDeps & { redisUrl: string; prefix: string; logger: Logger },
): Worker<RepricingJob> {
  return createWorker<RepricingJob>(
    REPRICING_QUEUE,
    async (job) => {
      const run = await repriceSavedSearches(job.data, {
        ...deps,
        afterBatch: (done) => job.updateProgress({ done }),
      });
      deps.logger.info({ runId: run._id, done: run.done, changed: run.changed }, 'saved searches re-priced');
    },
    deps.redisUrl,
    deps.logger,
    { prefix: deps.prefix, concurrency: 1 },
  );
}
