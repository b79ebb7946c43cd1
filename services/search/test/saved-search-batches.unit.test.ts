import type { SavedSearchRepository } from '../src/data/saved-searches';
import { forEachSavedSearchBatch } from '../src/use-cases/saved-search-batches';

type Walked = Parameters<Parameters<typeof forEachSavedSearchBatch>[2]>[0][number];

/** A repository whose one cursor yields `count` searches (ids s-01…) and records what it was asked. */
function repository(count: number) {
  const asked: Array<{ afterId: string | null; batchSize: number }> = [];
  const savedSearches: Pick<SavedSearchRepository, 'savedSince'> = {
    savedSince(window, batchSize) {
      asked.push({ afterId: window.afterId, batchSize });
      return (async function* () {
        for (let i = 1; i <= count; i++)
          yield {
            _id: `s-${String(i).padStart(2, '0')}`,
            user_id: 'u',
            loan_type: 'bridging',
            search_data: {},
          } as Walked;
      })();
    },
  };
  return { savedSearches, asked };
}

const since = new Date('2026-09-01T00:00:00Z');

describe('walking saved searches in batches', () => {
  it('reads them through one cursor and hands them over batch by batch, each with the id to resume after', async () => {
    const { savedSearches, asked } = repository(7);
    const seen: Array<[string[], string]> = [];
    await forEachSavedSearchBatch(
      savedSearches,
      { since, from: 's-00', batchSize: 3 },
      async (batch, cursor) => {
        seen.push([batch.map((s) => s._id), cursor]);
      },
    );
    expect(asked).toEqual([{ afterId: 's-00', batchSize: 3 }]);
    expect(seen).toEqual([
      [['s-01', 's-02', 's-03'], 's-03'],
      [['s-04', 's-05', 's-06'], 's-06'],
      [['s-07'], 's-07'],
    ]);
  });

  it('rests after each batch as long as the duty cycle asks (0.5: as long as the batch took)', async () => {
    const { savedSearches } = repository(4);
    const startedAt: number[] = [];
    const endedAt: number[] = [];
    await forEachSavedSearchBatch(
      savedSearches,
      { since, from: null, batchSize: 2, dutyCycle: 0.5 },
      async () => {
        startedAt.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 60));
        endedAt.push(performance.now());
      },
    );
    expect(startedAt).toHaveLength(2);
    // The batch took at least 60 ms, so the rest is at least as long (timers may fire a millisecond early).
    expect(startedAt[1] - endedAt[0]).toBeGreaterThanOrEqual(58);
  });

  it('refuses a duty cycle outside (0, 1]', async () => {
    const { savedSearches } = repository(1);
    for (const dutyCycle of [0, -1, 1.5, Number.NaN])
      await expect(
        forEachSavedSearchBatch(
          savedSearches,
          { since, from: null, batchSize: 1, dutyCycle },
          async () => {},
        ),
      ).rejects.toThrow(RangeError);
  });
});
