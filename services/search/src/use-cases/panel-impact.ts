import { PANEL_REPRICING_WINDOW_DAYS, type PanelImpact } from '@lsp/contracts';
import type { Logger } from 'pino';
import { type ImpactCounts, NO_COUNTS, type PanelImpactRepository } from '../data/panel-impacts';
import { type PanelStore, PanelVersionNotFoundError } from '../data/panel-store';
import type { SavedSearchRepository } from '../data/saved-searches';
import type { Panel } from '../panel/schema';
import { repriceSavedSearch, repricingChanged } from './repricing';
import { forEachSavedSearchBatch } from './saved-search-batches';

const DAY_MS = 24 * 3600 * 1000;

export interface PanelImpactDeps {
  panels: Pick<PanelStore, 'current' | 'readVersion' | 'recordAudit'>;
  savedSearches: Pick<SavedSearchRepository, 'countSavedSince' | 'savedSince'>;
  impacts: PanelImpactRepository;
  logger: Pick<Logger, 'info' | 'error'>;
  /** Saved searches re-priced between two writes of the progress (and two turns of the event loop). */
  batchSize?: number;
  /** The share of time spent measuring between rests (SavedSearchWalk.dutyCycle). */
  dutyCycle?: number;
  now?: () => Date;
}

/**
 * The measurement runs in a process that answers live searches: a batch holds its event loop (each
 * search priced on two panels, 1-2 ms), so batches are small and it rests as long as each took.
 */
const IMPACT_BATCH_SIZE = 20;
const IMPACT_DUTY_CYCLE = 0.5;

/**
 * Before a version goes live: every search saved in the last 90 days is run again on it and on the
 * active panel, and counted by what it would gain or lose. It runs in the background in small
 * batches, resting between them so live searches on this process keep their pace; the
 * progress is stored after each batch for the page's progress bar.
 */
export class PanelImpactRunner {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly deps: PanelImpactDeps) {}

  /** Starts a measurement (a new one replaces a finished one); one already running here is returned. */
  async start(version: string, operator: string): Promise<PanelImpact> {
    const { panels, savedSearches, impacts } = this.deps;
    if (this.running.has(version)) {
      const current = await impacts.find(version);
      if (current) return current;
    }
    const draft = await panels.readVersion(version);
    if (!draft) throw new PanelVersionNotFoundError(version);
    const active = panels.current();
    const since = new Date(
      (this.deps.now?.() ?? new Date()).getTime() - PANEL_REPRICING_WINDOW_DAYS * DAY_MS,
    );
    const total = await savedSearches.countSavedSince(since);
    const started = await impacts.begin(version, active.version, total, operator);
    const run = this.measure(version, active, draft, since)
      .then(() =>
        panels.recordAudit({
          operator,
          action: 'impact-measured',
          version,
          detail: `against ${active.version}`,
        }),
      )
      .catch(async (err) => {
        this.deps.logger.error({ err, version }, 'panel impact measurement failed');
        await impacts.finish(version, 'failed').catch(() => undefined);
      })
      .finally(() => this.running.delete(version));
    this.running.set(version, run);
    return started;
  }

  /** The latest measurement of a version, running or finished. */
  find(version: string): Promise<PanelImpact | null> {
    return this.deps.impacts.find(version);
  }

  /** Resolves when the measurement of `version` running here ends (for shutdown and tests). */
  async settled(version: string): Promise<void> {
    await this.running.get(version);
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.running.values());
  }

  private async measure(version: string, active: Panel, draft: Panel, since: Date): Promise<void> {
    const { savedSearches, impacts } = this.deps;
    const walk = {
      since,
      from: null,
      batchSize: this.deps.batchSize ?? IMPACT_BATCH_SIZE,
      dutyCycle: this.deps.dutyCycle ?? IMPACT_DUTY_CYCLE,
    };
    await forEachSavedSearchBatch(savedSearches, walk, async (batch, cursor) => {
      const counts: ImpactCounts = { ...NO_COUNTS };
      for (const search of batch) {
        const moved = repriceSavedSearch(search, active, draft);
        if (!moved) counts.skipped += 1;
        else {
          if (moved.gainOffer) counts.gainOffer += 1;
          if (moved.loseOffer) counts.loseOffer += 1;
          if (moved.betterBest) counts.betterBest += 1;
          if (moved.worseBest) counts.worseBest += 1;
          if (!repricingChanged(moved)) counts.unchanged += 1;
        }
      }
      await impacts.recordBatch(version, counts, batch.length, cursor);
    });
    await impacts.finish(version, 'done');
    this.deps.logger.info({ version }, 'panel impact measured');
  }
}
