// Range predicates ($gt, $gte, $lt, $lte) on an index's first field walk its keys in order instead
// of scanning the collection; the answers are exactly a scan's (checked against an unindexed twin),
// arrays included, after writes too; explain says IXSCAN, COLLSCAN or SORT.
import { Collection, Document } from 'mongodb';

interface Row {
  _id: number;
  [field: string]: unknown;
}
import { usingRealMongo, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });
let indexed: Collection<Row>;
let scanned: Collection<Row>;

function doc(i: number): Row {
  const n = i % 17 === 0 ? `s${i}` : i % 19 === 0 ? null : i;
  const d: Row = {
    _id: i,
    n,
    day: new Date(Date.UTC(2026, 0, 1 + (i % 60))),
    tags: [i % 50, (i % 50) + 100],
  };
  if (i % 23 === 0) delete d.n;
  return d;
}

beforeAll(async () => {
  indexed = t.db.collection<Row>('indexed');
  scanned = t.db.collection<Row>('scanned');
  const docs = Array.from({ length: 300 }, (_, i) => doc(i));
  await indexed.insertMany(docs.map((d) => ({ ...d })));
  await scanned.insertMany(docs.map((d) => ({ ...d })));
  await indexed.createIndex({ n: 1 });
  await indexed.createIndex({ tags: 1 });
  await indexed.createIndex({ day: -1, n: 1 });
});

const FILTERS: Document[] = [
  { n: { $gt: 50, $lte: 60 } },
  { n: { $lt: 5 } },
  { n: { $gte: 295 } },
  { n: { $gte: 's', $lt: 't' } },
  { n: { $gt: 10, $lt: 20, $ne: 15 } },
  { tags: { $gt: 45, $lt: 105 } },
  { tags: { $lte: 1 } },
  { day: { $gte: new Date(Date.UTC(2026, 0, 10)), $lt: new Date(Date.UTC(2026, 0, 12)) } },
];

async function sameAnswers(filter: Document): Promise<void> {
  const got = await indexed.find(filter).sort({ _id: 1 }).toArray();
  const want = await scanned.find(filter).sort({ _id: 1 }).toArray();
  expect(got).toEqual(want);
}

describe('range predicates on an index', () => {
  it.each(FILTERS.map((f) => [JSON.stringify(f), f]))(
    '%s: the same documents as a scan',
    async (_, filter) => {
      await sameAnswers(filter as Document);
    },
  );

  it('stays right after inserts, updates and deletes add and remove keys', async () => {
    await sameAnswers({ n: { $gt: 100, $lt: 140 } });
    for (const c of [indexed, scanned]) {
      await c.insertMany([
        { _id: 1000, n: 120.5 },
        { _id: 1001, n: 139 },
      ]);
      await c.updateOne({ _id: 110 }, { $set: { n: 1e6 } });
      await c.deleteOne({ _id: 120 });
      await c.updateOne({ _id: 5 }, { $set: { n: 130 } });
    }
    await sameAnswers({ n: { $gt: 100, $lt: 140 } });
    await sameAnswers({ n: { $gte: 1e6 } });
  });

  it('a numeric path component (a position or a field name) gives the scan’s answer, ranges and equality', async () => {
    for (const c of [indexed, scanned])
      await c.insertMany([
        { _id: 3000, a: [{ 0: 5 }] },
        { _id: 3001, a: [7, 20] },
        { _id: 3002, a: { 0: 8 } },
      ]);
    await indexed.createIndex({ 'a.0': 1 });
    await sameAnswers({ 'a.0': { $lt: 10 } });
    await sameAnswers({ 'a.0': { $gt: 6 } });
    await sameAnswers({ 'a.0': 5 });
  });

  it('inside a transaction the range sees the transaction’s own writes', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await indexed.insertOne({ _id: 2000, n: 77.5 }, { session });
      await indexed.updateOne({ _id: 78 }, { $set: { n: -1 } }, { session });
      const ids = (await indexed.find({ n: { $gt: 77, $lt: 79 } }, { session }).toArray()).map((d) => d._id);
      // 78 moved out of the range, 2000 came into it; 77 is not above 77.
      expect(ids).toEqual([2000]);
    } finally {
      await session.abortTransaction();
      await session.endSession();
    }
  });
});

(usingRealMongo ? describe.skip : describe)('explain', () => {
  async function plan(
    filter: Document,
    sort?: Document,
  ): Promise<{ winningPlan: Document; examined: number }> {
    const reply = await t.db.command({ explain: { find: 'indexed', filter, ...(sort ? { sort } : {}) } });
    return { winningPlan: reply.queryPlanner.winningPlan, examined: reply.executionStats.totalDocsExamined };
  }

  it('a range on an indexed field is IXSCAN and examines only its range', async () => {
    const { winningPlan, examined } = await plan({ n: { $gte: 200, $lt: 210 } });
    expect(winningPlan).toEqual({
      stage: 'FETCH',
      inputStage: { stage: 'IXSCAN', keyPattern: { n: 1 }, indexName: 'n_1', direction: 'forward' },
    });
    expect(examined).toBeLessThanOrEqual(10);
  });

  it('a range on an unindexed field is COLLSCAN; a sort is a SORT stage over the access path', async () => {
    expect((await plan({ other: { $gt: 1 } })).winningPlan).toEqual({
      stage: 'COLLSCAN',
      direction: 'forward',
    });
    expect((await plan({ n: { $gt: 1 } }, { day: -1 })).winningPlan).toMatchObject({
      stage: 'SORT',
      sortPattern: { day: -1 },
      inputStage: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'n_1' } },
    });
  });

  it('the services’ queries: a user’s searches newest first, the re-pricing window, the outbox relay', async () => {
    // search's saved_searches and its indexes; service-kit's outbox and its TTL index.
    const searches = t.db.collection('saved_searches');
    await searches.createIndex({ user_id: 1, created_at: -1 });
    await searches.createIndex({ created_at: 1 });
    const outbox = t.db.collection('outbox');
    await outbox.createIndex({ publishedAt: 1 }, { expireAfterSeconds: 7 * 24 * 3600 });
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute));
    await searches.insertMany(
      Array.from({ length: 60 }, (_, i) => ({
        _id: `s${String(i).padStart(3, '0')}`,
        user_id: `u${i % 6}`,
        created_at: at(i),
      })) as never[],
    );
    await outbox.insertMany(
      Array.from({ length: 50 }, (_, i) => ({ n: i, publishedAt: i < 45 ? new Date() : null })),
    );
    const explain = async (find: string, filter: Document, sort: Document, limit?: number) =>
      (await t.db.command({ explain: { find, filter, sort, ...(limit ? { limit } : {}) } })) as Document;

    // The index's own order: no SORT stage, and a page of 3 reads 3 documents.
    const newest = await explain('saved_searches', { user_id: 'u1' }, { created_at: -1 }, 3);
    expect(newest.queryPlanner.winningPlan).toEqual({
      stage: 'LIMIT',
      limitAmount: 3,
      inputStage: {
        stage: 'FETCH',
        inputStage: {
          stage: 'IXSCAN',
          keyPattern: { user_id: 1, created_at: -1 },
          indexName: 'user_id_1_created_at_-1',
          direction: 'forward',
        },
      },
    });
    expect(newest.executionStats).toMatchObject({ nReturned: 3, totalDocsExamined: 3 });

    // The re-pricing window (search's savedSince): a created_at range, paged by _id.
    const window = await explain(
      'saved_searches',
      { created_at: { $gte: at(10), $lt: at(20) }, _id: { $gt: 's012' } },
      { _id: 1 },
    );
    expect(window.queryPlanner.winningPlan).toMatchObject({
      stage: 'SORT',
      inputStage: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'created_at_1' } },
    });
    expect(window.executionStats).toMatchObject({ nReturned: 7, totalDocsExamined: 10 });

    const relay = await explain('outbox', { publishedAt: null }, { _id: 1 }, 100);
    expect(relay.queryPlanner.winningPlan.inputStage.inputStage).toMatchObject({
      stage: 'IXSCAN',
      indexName: 'publishedAt_1',
    });
    expect(relay.executionStats).toMatchObject({ nReturned: 5, totalDocsExamined: 5 });
  });
});
