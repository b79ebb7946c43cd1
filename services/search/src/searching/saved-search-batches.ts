import type { SavedSearchRepository } from '../data/saved-searches';

type Batch = Awaited<ReturnType<SavedSearchRepository['savedSinceBatch']>>;

/**
 * Walks the searches saved in a window, batch by batch in id order from after `from`, handing each
 * batch and the id to resume after it to `onBatch`; between batches the event loop gets a turn, so
 * other work on the process keeps its pace.
 */
export async function forEachSavedSearchBatch(
  savedSearches: Pick<SavedSearchRepository, 'savedSinceBatch'>,
  window: { since: Date; until?: Date; from: string | null; batchSize: number },
  onBatch: (batch: Batch, cursor: string) => Promise<void>,
): Promise<void> {
  let cursor = window.from;
  for (;;) {
    const batch = await savedSearches.savedSinceBatch(window.since, cursor, window.batchSize, window.until);
    if (batch.length === 0) return;
    cursor = batch[batch.length - 1]._id;
    await onBatch(batch, cursor);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
