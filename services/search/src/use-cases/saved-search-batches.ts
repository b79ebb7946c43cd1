import type { SavedSearchRepository } from '../data/saved-searches';

type SavedSearch = ReturnType<SavedSearchRepository['savedSince']> extends AsyncIterable<infer T> ? T : never;

export interface SavedSearchWalk {
  since: Date;
  until?: Date;
  /** Resume after this id (the cursor a committed batch left); null: from the start. */
  from: string | null;
  batchSize: number;
  /**
   * The share of wall time the walk may spend on batches (0 < dutyCycle ≤ 1): after a batch that took
   * t, it rests t × (1 / dutyCycle − 1). The walk shares the database, and on a small machine the
   * cores, with live searches; resting keeps their latency whatever the batch size. Default 1: no rest.
   */
  dutyCycle?: number;
}

/**
 * Walks the searches saved in a window, batch by batch in id order from after `from`, handing each
 * batch and the id to resume after it to `onBatch`, then resting as the duty cycle asks (at least a
 * turn of the event loop, so other work on the process keeps its pace).
 */
export async function forEachSavedSearchBatch(
  savedSearches: Pick<SavedSearchRepository, 'savedSince'>,
  walk: SavedSearchWalk,
  onBatch: (batch: SavedSearch[], cursor: string) => Promise<void>,
): Promise<void> {
  const duty = walk.dutyCycle ?? 1;
  if (!(duty > 0 && duty <= 1)) throw new RangeError(`dutyCycle must be in (0, 1], not ${duty}`);
  let batch: SavedSearch[] = [];
  let started = performance.now();
  const flush = async () => {
    await onBatch(batch, batch[batch.length - 1]._id);
    batch = [];
    const restMs = (performance.now() - started) * (1 / duty - 1);
    await new Promise<void>((resolve) => (restMs >= 1 ? setTimeout(resolve, restMs) : setImmediate(resolve)));
    started = performance.now();
  };
  const searches = savedSearches.savedSince(
    { since: walk.since, until: walk.until, afterId: walk.from },
    walk.batchSize,
  );
  for await (const search of searches) {
    batch.push(search);
    if (batch.length === walk.batchSize) await flush();
  }
  if (batch.length > 0) await flush();
}
