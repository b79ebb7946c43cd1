// Sorts an index's key order gives (its fields, or an equality prefix and the fields after it,
// forward or backward) walk the index with no SORT stage and stop at the limit; a range on a later
// field after an equality prefix walks only that slice. Every answer is checked against the same
// query on an unindexed twin (a COLLSCAN and a SORT), over seeded random data and writes.
import { Collection, Document } from 'mongodb';
import { explainFind, seededRandom, stageNames, usingRealMongo, useTestDatabase } from './support';

interface Row {
  _id: number;
  [field: string]: unknown;
}

const t = useTestDatabase({ replSet: 'rs0' });

const explain = (coll: string, filter: Document, sort?: Document, limit?: number) =>
  explainFind(t.db, coll, filter, sort, limit);

(usingRealMongo ? describe.skip : describe)('sorts walk the index', () => {
  let feed: Collection<Row>;

  beforeAll(async () => {
    feed = t.db.collection<Row>('feed');
    await feed.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({ _id: i, at: (i * 7919) % 1000, kind: `k${i % 4}` })),
    );
    await feed.createIndex({ at: 1 });
    await feed.createIndex({ kind: 1, at: -1 });
  });

  it('a sort on the indexed field, either way, with a limit reads one page of documents', async () => {
    for (const [sort, direction, first] of [
      [{ at: 1 }, 'forward', 0],
      [{ at: -1 }, 'backward', 999],
    ] as const) {
      const reply = await explain('feed', {}, sort, 5);
      expect(reply.queryPlanner.winningPlan).toEqual({
        stage: 'LIMIT',
        limitAmount: 5,
        inputStage: {
          stage: 'FETCH',
          inputStage: { stage: 'IXSCAN', keyPattern: { at: 1 }, indexName: 'at_1', direction },
        },
      });
      // Five documents; one key past the page shows the run of equal keys has ended.
      expect(reply.executionStats).toMatchObject({
        nReturned: 5,
        totalDocsExamined: 5,
        totalKeysExamined: 6,
      });
      const page = await feed.find({}).sort(sort).limit(5).toArray();
      expect(page[0].at).toBe(first);
    }
  });

  it('an equality prefix and the next field: the compound index, forward and backward', async () => {
    const newest = await explain('feed', { kind: 'k2' }, { at: -1 }, 3);
    expect(stageNames(newest.queryPlanner.winningPlan)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(newest.queryPlanner.winningPlan.inputStage.inputStage).toMatchObject({
      indexName: 'kind_1_at_-1',
      direction: 'forward',
    });
    expect(newest.executionStats).toMatchObject({ nReturned: 3, totalDocsExamined: 3 });
    const oldest = await explain('feed', { kind: 'k2' }, { kind: 1, at: 1 }, 3);
    expect(oldest.queryPlanner.winningPlan.inputStage.inputStage).toMatchObject({
      indexName: 'kind_1_at_-1',
      direction: 'backward',
    });
    expect(oldest.executionStats).toMatchObject({ nReturned: 3, totalDocsExamined: 3 });
    const docs = await feed.find({ kind: 'k2' }).sort({ at: -1 }).limit(3).toArray();
    expect(docs.map((d) => d.at)).toEqual([998, 994, 990]);
  });

  it('a sort the index order does not give is a SORT stage', async () => {
    // Mixed directions against { kind: 1, at: -1 } without the prefix pinned, and an unindexed field.
    for (const sort of [{ kind: 1, at: 1 }, { other: 1 }]) {
      const reply = await explain('feed', {}, sort, 5);
      expect(reply.queryPlanner.winningPlan.stage).toBe('SORT');
      expect(reply.executionStats.totalDocsExamined).toBe(1000);
    }
  });

  it('a range on a later field after the equality prefix reads only its slice', async () => {
    const reply = await explain('feed', { kind: 'k1', at: { $gte: 100, $lt: 200 } });
    expect(stageNames(reply.queryPlanner.winningPlan)).toEqual(['FETCH', 'IXSCAN']);
    expect(reply.queryPlanner.winningPlan.inputStage.indexName).toBe('kind_1_at_-1');
    expect(reply.executionStats).toMatchObject({
      nReturned: 25,
      totalDocsExamined: 25,
      totalKeysExamined: 25,
    });
  });

  it('inside a transaction that wrote the collection the order is still the sort’s', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await feed.insertOne({ _id: 5000, at: 1500, kind: 'k0' }, { session });
      await feed.updateOne({ _id: 0 }, { $set: { at: -5 } }, { session });
      const top = await feed.find({}, { session }).sort({ at: -1 }).limit(2).toArray();
      expect(top.map((d) => d._id)).toEqual([5000, 321]);
      const bottom = await feed.find({}, { session }).sort({ at: 1 }).limit(2).toArray();
      expect(bottom.map((d) => d._id)).toEqual([0, 679]);
    } finally {
      await session.abortTransaction();
      await session.endSession();
    }
  });
});

describe('index walks give a scan’s answers (seeded random data and writes)', () => {
  let indexed: Collection<Row>;
  let scanned: Collection<Row>;
  const users = ['u0', 'u1', 'u2', 'u3'];

  function value(rnd: () => number): unknown {
    const r = rnd();
    if (r < 0.04) return undefined;
    if (r < 0.07) return null;
    if (r < 0.12) return `s${Math.floor(rnd() * 5)}`;
    if (r < 0.2) return new Date(Date.UTC(2026, 0, 1 + Math.floor(rnd() * 20)));
    if (r < 0.25) return Math.floor(rnd() * 20) + 0.5;
    return Math.floor(rnd() * 20);
  }

  function row(id: number, rnd: () => number): Row {
    const d: Row = {
      _id: id,
      user: users[Math.floor(rnd() * users.length)],
      t: value(rnd),
      a: Math.floor(rnd() * 3),
    };
    const b = value(rnd);
    if (b !== undefined) d.b = b;
    if (d.t === undefined) delete d.t;
    return d;
  }

  beforeAll(async () => {
    indexed = t.db.collection<Row>('walk_indexed');
    scanned = t.db.collection<Row>('walk_scanned');
    const rnd = seededRandom(35);
    const docs = Array.from({ length: 400 }, (_, i) => row(i, rnd));
    await indexed.insertMany(docs.map((d) => ({ ...d })));
    await scanned.insertMany(docs.map((d) => ({ ...d })));
    await indexed.createIndex({ user: 1, t: -1 });
    await indexed.createIndex({ a: 1, b: 1, t: 1 });
    await indexed.createIndex({ t: 1 });
  });

  function query(rnd: () => number): { filter: Document; sort?: Document; limit: number; skip: number } {
    const filter: Document = {};
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const shape = Math.floor(rnd() * 4);
    const bound = (): Document => {
      const range: Document = {};
      const lo = value(rnd);
      const hi = value(rnd);
      if (lo !== undefined && lo !== null && rnd() < 0.8) range[pick(['$gt', '$gte'])] = lo;
      if (hi !== undefined && hi !== null && rnd() < 0.6) range[pick(['$lt', '$lte'])] = hi;
      return range;
    };
    if (shape === 0) filter.user = pick(users);
    if (shape === 1) {
      filter.user = pick(users);
      const range = bound();
      if (Object.keys(range).length > 0) filter.t = range;
    }
    if (shape === 2) {
      filter.a = Math.floor(rnd() * 3);
      if (rnd() < 0.5) filter.b = value(rnd) ?? 3;
      else {
        const range = bound();
        if (Object.keys(range).length > 0) filter.b = range;
      }
    }
    const dir = () => (rnd() < 0.5 ? 1 : -1);
    const sorts: Array<Document | undefined> = [
      undefined,
      { t: dir() },
      { user: dir(), t: dir() },
      { a: dir(), b: dir(), t: dir() },
      { b: dir() },
      { b: dir(), t: dir() },
      { t: dir(), _id: 1 },
    ];
    const sort = pick(sorts);
    const limit = rnd() < 0.6 ? 1 + Math.floor(rnd() * 15) : 0;
    const skip = rnd() < 0.2 ? Math.floor(rnd() * 5) : 0;
    return { filter, sort, limit, skip };
  }

  async function run(c: Collection<Row>, q: ReturnType<typeof query>): Promise<Row[]> {
    let cursor = c.find(q.filter);
    if (q.sort) cursor = cursor.sort(q.sort);
    else cursor = cursor.sort({ _id: 1 });
    if (q.skip) cursor = cursor.skip(q.skip);
    if (q.limit) cursor = cursor.limit(q.limit);
    return cursor.toArray();
  }

  it('300 random queries, with inserts, updates and deletes between rounds', async () => {
    const rnd = seededRandom(2026);
    let walked = 0;
    let nextId = 10_000;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 50; i++) {
        const q = query(rnd);
        const got = await run(indexed, q);
        const want = await run(scanned, q);
        expect({ q, docs: got }).toEqual({ q, docs: want });
        if (!usingRealMongo && q.sort) {
          const plan = (await explain('walk_indexed', q.filter, q.sort, q.limit)).queryPlanner.winningPlan;
          if (!stageNames(plan).includes('SORT')) walked++;
        }
      }
      // Writes after the ordered entries exist: they must follow inserts, moves and deletes.
      for (let i = 0; i < 20; i++) {
        const d = row(nextId++, rnd);
        const id = Math.floor(rnd() * 400);
        const t2 = value(rnd);
        for (const c of [indexed, scanned]) {
          await c.insertOne({ ...d });
          await c.updateOne({ _id: id }, t2 === undefined ? { $unset: { t: '' } } : { $set: { t: t2 } });
          await c.deleteOne({ _id: (id * 31) % 400 });
        }
      }
    }
    // The property covers index walks, not only SORT plans.
    if (!usingRealMongo) expect(walked).toBeGreaterThan(30);
  });

  it('an index that becomes multikey stops walking and still answers as a scan does', async () => {
    const q = { filter: { user: 'u1' }, sort: { t: -1 }, limit: 5, skip: 0 };
    for (const c of [indexed, scanned]) await c.insertOne({ _id: 99_999, user: 'u1', t: [100, -100] });
    expect(await run(indexed, q)).toEqual(await run(scanned, q));
    if (!usingRealMongo)
      expect(
        stageNames((await explain('walk_indexed', q.filter, q.sort, 5)).queryPlanner.winningPlan),
      ).toContain('SORT');
  });
});
