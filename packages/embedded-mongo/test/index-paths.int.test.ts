// Index paths beside the full single and compound ones: a sparse index answers the filters that need
// one of its fields, a partial index those whose equalities pass its filter, `$in` lists on every
// field of a compound index are looked up key by key, and a `$or` whose branches each have an index
// is the union of their lookups (an OR stage). explain answers for aggregate, count and distinct as
// for find. Every answer is checked against the same query on an unindexed twin.
import { Collection, Document } from 'mongodb';
import {
  explainFind as explainOn,
  planStages,
  seededRandom,
  stageNames,
  usingRealMongo,
  useTestDatabase,
} from './support';

interface Row {
  _id: number;
  [field: string]: unknown;
}

const t = useTestDatabase({ replSet: 'rs0' });

const indexNames = (plan: Document) =>
  planStages(plan)
    .filter((s) => s.stage === 'IXSCAN')
    .map((s) => s.indexName as string);

const explainFind = (coll: string, filter: Document, sort?: Document, limit?: number) =>
  explainOn(t.db, coll, filter, sort, limit);

(usingRealMongo ? describe.skip : describe)('index paths', () => {
  let indexed: Collection<Row>;
  let scanned: Collection<Row>;

  beforeAll(async () => {
    indexed = t.db.collection<Row>('paths_indexed');
    scanned = t.db.collection<Row>('paths_scanned');
    const docs: Row[] = Array.from({ length: 600 }, (_, i) => {
      const d: Row = {
        _id: i,
        owner: `o${i % 30}`,
        kind: `k${i % 4}`,
        at: new Date(Date.UTC(2026, 0, 1, 0, i)),
      };
      // A token on one in ten, null on one in thirty, missing on the rest.
      if (i % 10 === 0) d.token = `t${i}`;
      else if (i % 30 === 7) d.token = null;
      // A slug (a string) on two in three; null or missing on the others.
      if (i % 3 !== 0) d.slug = `s${i}`;
      else if (i % 6 === 0) d.slug = null;
      d.lender = `l${i % 7}`;
      d.product = `p${i % 11}`;
      d.email = `e${i % 50}`;
      d.user = `u${i % 40}`;
      return d;
    });
    await indexed.insertMany(docs.map((d) => ({ ...d })));
    await scanned.insertMany(docs.map((d) => ({ ...d })));
    await indexed.createIndex({ token: 1 }, { sparse: true });
    await indexed.createIndex(
      { slug: 1 },
      { unique: true, partialFilterExpression: { slug: { $type: 'string' } } },
    );
    await indexed.createIndex(
      { owner: 1, at: -1 },
      { partialFilterExpression: { owner: { $exists: true } } },
    );
    await indexed.createIndex({ lender: 1, product: 1, at: 1 });
    await indexed.createIndex({ kind: 1, email: 1 });
    await indexed.createIndex({ kind: 1, user: 1 });
  });

  async function same(filter: Document, sort: Document = { _id: 1 }, limit = 0): Promise<Row[]> {
    const run = (c: Collection<Row>) => c.find(filter).sort(sort).limit(limit).toArray();
    const got = await run(indexed);
    expect(got).toEqual(await run(scanned));
    return got;
  }

  it('a sparse index answers an equality on a value, never { field: null } nor a sort alone', async () => {
    const hit = await explainFind('paths_indexed', { token: 't120' });
    expect(indexNames(hit.queryPlanner.winningPlan)).toEqual(['token_1']);
    expect(hit.executionStats).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
    expect(await same({ token: 't120' })).toHaveLength(1);
    const range = await explainFind('paths_indexed', { token: { $gte: 't5', $lt: 't6' } });
    expect(indexNames(range.queryPlanner.winningPlan)).toEqual(['token_1']);
    await same({ token: { $gte: 't5', $lt: 't6' } });
    // null matches the documents without the field, which a sparse index does not hold.
    const missing = await explainFind('paths_indexed', { token: null });
    expect(missing.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
    expect((await same({ token: null })).length).toBeGreaterThan(500);
    const sorted = await explainFind('paths_indexed', {}, { token: 1 }, 5);
    expect(stageNames(sorted.queryPlanner.winningPlan)).toEqual(['SORT', 'COLLSCAN']);
    await same({}, { token: 1, _id: 1 }, 5);
  });

  it('a partial index answers the filters whose equalities pass its filter', async () => {
    const bySlug = await explainFind('paths_indexed', { slug: 's301' });
    expect(indexNames(bySlug.queryPlanner.winningPlan)).toEqual(['slug_1']);
    expect(bySlug.executionStats).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
    await same({ slug: 's301' });
    // A number is not a string: the index does not hold what it may match.
    expect((await explainFind('paths_indexed', { slug: 301 })).queryPlanner.winningPlan.stage).toBe(
      'COLLSCAN',
    );
    expect((await explainFind('paths_indexed', { slug: null })).queryPlanner.winningPlan.stage).toBe(
      'COLLSCAN',
    );
    await same({ slug: null });
    // Pinned by the query, the partial filter holds: the index is walked for the owner's newest.
    const newest = await explainFind('paths_indexed', { owner: 'o3' }, { at: -1 }, 4);
    expect(stageNames(newest.queryPlanner.winningPlan)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(indexNames(newest.queryPlanner.winningPlan)).toEqual(['owner_1_at_-1']);
    expect(newest.executionStats).toMatchObject({ nReturned: 4, totalDocsExamined: 4 });
    await same({ owner: 'o3' }, { at: -1 }, 4);
  });

  it('$in lists on every field of a compound index are looked up key by key', async () => {
    const filter = { kind: 'k1', email: { $in: ['e1', 'e5', 'e9', 'nobody'] } };
    const reply = await explainFind('paths_indexed', filter);
    expect(indexNames(reply.queryPlanner.winningPlan)).toEqual(['kind_1_email_1']);
    const docs = await same(filter);
    expect(reply.executionStats).toMatchObject({ nReturned: docs.length, totalDocsExamined: docs.length });
  });

  it('a $or whose every branch has an index reads the union of their lookups', async () => {
    const pairs = [
      { lender: 'l1', product: 'p2' },
      { lender: 'l3', product: 'p4' },
      { lender: 'l5', product: 'p10' },
    ];
    const filter = { $or: pairs, at: { $gt: new Date(Date.UTC(2026, 0, 1, 3)) } };
    const reply = await explainFind('paths_indexed', filter);
    expect(stageNames(reply.queryPlanner.winningPlan)).toEqual(['FETCH', 'OR', 'IXSCAN', 'IXSCAN', 'IXSCAN']);
    expect(indexNames(reply.queryPlanner.winningPlan)).toEqual([
      'lender_1_product_1_at_1',
      'lender_1_product_1_at_1',
      'lender_1_product_1_at_1',
    ]);
    const docs = await same(filter);
    expect(docs.length).toBeGreaterThan(0);
    expect(reply.executionStats.totalDocsExamined).toBeLessThan(40);
    // One of an $and's members; each branch with the rest pins both fields of its own index.
    const person = { kind: 'k2', $and: [{ $or: [{ email: 'e2' }, { user: 'u6' }] }] };
    const both = await explainFind('paths_indexed', person);
    expect(stageNames(both.queryPlanner.winningPlan)).toEqual(['FETCH', 'OR', 'IXSCAN', 'IXSCAN']);
    expect(indexNames(both.queryPlanner.winningPlan)).toEqual(['kind_1_email_1', 'kind_1_user_1']);
    await same(person);
    // An _id branch is a lookup of its own; a branch with no index leaves the whole $or to a scan.
    const byId = { $or: [{ _id: 4 }, { token: 't40' }] };
    expect(stageNames((await explainFind('paths_indexed', byId)).queryPlanner.winningPlan)).toEqual([
      'FETCH',
      'OR',
      'IXSCAN',
      'IXSCAN',
    ]);
    expect(await same(byId)).toHaveLength(2);
    const open = { $or: [{ token: 't40' }, { unindexed: 1 }] };
    expect((await explainFind('paths_indexed', open)).queryPlanner.winningPlan.stage).toBe('COLLSCAN');
    await same(open);
    // A pinned field that one index answers as well as the union would: no union.
    const prefixed = { kind: 'k3', $or: [{ email: 'e3' }, { at: { $gt: new Date(0) } }] };
    expect(indexNames((await explainFind('paths_indexed', prefixed)).queryPlanner.winningPlan)).toHaveLength(
      1,
    );
    await same(prefixed);
  });

  it('after writes the sparse, partial and OR paths still answer as a scan does', async () => {
    const late = new Date(Date.UTC(2026, 5, 1));
    for (const c of [indexed, scanned]) {
      await c.updateMany({ _id: { $lt: 100 } }, { $unset: { token: '' } });
      await c.updateMany({ _id: { $gte: 500 } }, { $set: { token: 'late', slug: 7 } });
      await c.insertOne({
        _id: 9000,
        token: 't120',
        slug: 's9000',
        owner: 'o3',
        at: late,
        lender: 'l1',
        product: 'p2',
      });
      await c.deleteMany({ _id: { $in: [120, 301] } });
    }
    await same({ token: 't120' });
    await same({ token: 'late' }, { _id: -1 }, 10);
    await same({ slug: 's9000' });
    await same({ slug: 's301' });
    await same({ owner: 'o3' }, { at: -1 }, 6);
    await same({ $or: [{ lender: 'l1', product: 'p2' }, { token: 'late' }] });
  });
});

(usingRealMongo ? describe.skip : describe)('explain of aggregate, count and distinct', () => {
  beforeAll(async () => {
    const c = t.db.collection<Row>('explained');
    await c.insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i, user: `u${i % 20}`, n: i })));
    await c.createIndex({ user: 1, n: -1 });
  });

  it('an aggregate: its leading $match’s access path, then the stages after it', async () => {
    const pipeline = [{ $match: { user: 'u4' } }, { $group: { _id: 1, n: { $sum: 1 } } }];
    const reply = await t.db.command({ explain: { aggregate: 'explained', pipeline, cursor: {} } });
    expect(reply.stages[0].$cursor.queryPlanner.winningPlan).toEqual({
      stage: 'FETCH',
      inputStage: {
        stage: 'IXSCAN',
        keyPattern: { user: 1, n: -1 },
        indexName: 'user_1_n_-1',
        direction: 'forward',
      },
    });
    expect(reply.stages[0].$cursor.executionStats).toMatchObject({ nReturned: 10, totalDocsExamined: 10 });
    expect(reply.stages.slice(1)).toEqual([{ $group: { _id: 1, n: { $sum: 1 } } }]);
    // Only a $match: the query's plan alone, as for a find.
    const only = await t.db.command({
      explain: { aggregate: 'explained', pipeline: [{ $match: { n: 3 } }], cursor: {} },
    });
    expect(only.queryPlanner.winningPlan).toEqual({ stage: 'COLLSCAN', direction: 'forward' });
    // The driver's own form (`explain: true` in the aggregate) answers the plan, not the documents.
    const driver = await t.db.collection('explained').aggregate(pipeline).explain();
    expect(driver.stages[0].$cursor.queryPlanner.winningPlan.inputStage.indexName).toBe('user_1_n_-1');
  });

  it('count and distinct: the access path of their query', async () => {
    const count = await t.db.command({ explain: { count: 'explained', query: { user: 'u1' } } });
    expect(stageNames(count.queryPlanner.winningPlan)).toEqual(['COUNT', 'FETCH', 'IXSCAN']);
    const distinct = await t.db.command({
      explain: { distinct: 'explained', key: 'n', query: { user: 'u1' } },
    });
    expect(indexNames(distinct.queryPlanner.winningPlan)).toEqual(['user_1_n_-1']);
    expect(distinct.executionStats).toMatchObject({ nReturned: 10, totalDocsExamined: 10 });
    await expect(t.db.command({ explain: { insert: 'explained', documents: [] } })).rejects.toMatchObject({
      codeName: 'IllegalOperation',
    });
  });
});

describe('sparse, partial, $in and $or paths give a scan’s answers (seeded random data and writes)', () => {
  let indexed: Collection<Row>;
  let scanned: Collection<Row>;

  // Values of every kind a filter may meet: missing, null, strings, numbers, arrays of them.
  function value(rnd: () => number): unknown {
    const r = rnd();
    if (r < 0.15) return undefined;
    if (r < 0.22) return null;
    if (r < 0.3) return [`v${Math.floor(rnd() * 4)}`, Math.floor(rnd() * 4)];
    if (r < 0.65) return `v${Math.floor(rnd() * 4)}`;
    return Math.floor(rnd() * 4);
  }

  function row(id: number, rnd: () => number): Row {
    const d: Row = { _id: id };
    for (const field of ['a', 'b', 'c', 'd']) {
      const v = value(rnd);
      if (v !== undefined) d[field] = v;
    }
    return d;
  }

  beforeAll(async () => {
    indexed = t.db.collection<Row>('random_paths_indexed');
    scanned = t.db.collection<Row>('random_paths_scanned');
    const rnd = seededRandom(77);
    const docs = Array.from({ length: 400 }, (_, i) => row(i, rnd));
    await indexed.insertMany(docs.map((d) => ({ ...d })));
    await scanned.insertMany(docs.map((d) => ({ ...d })));
    await indexed.createIndex({ a: 1 }, { sparse: true });
    await indexed.createIndex({ b: 1, c: 1 }, { sparse: true });
    await indexed.createIndex({ c: 1, d: -1 }, { partialFilterExpression: { c: { $type: 'string' } } });
    await indexed.createIndex({ d: 1 }, { partialFilterExpression: { d: { $gte: 1 } } });
    await indexed.createIndex({ a: 1, d: 1 });
  });

  function query(rnd: () => number): { filter: Document; sort: Document; limit: number } {
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const field = () => pick(['a', 'b', 'c', 'd']);
    const condition = (): unknown => {
      const r = rnd();
      const v = value(rnd);
      if (r < 0.5) return v === undefined ? null : v;
      if (r < 0.65) return { $in: [value(rnd) ?? 0, value(rnd) ?? 'v1'] };
      if (r < 0.85) return { [pick(['$gt', '$gte', '$lt', '$lte'])]: v ?? 1 };
      return { $exists: rnd() < 0.5 };
    };
    const clause = (): Document => {
      const out: Document = {};
      const n = 1 + Math.floor(rnd() * 2);
      for (let i = 0; i < n; i++) out[field()] = condition();
      return out;
    };
    const shape = Math.floor(rnd() * 3);
    let filter: Document = clause();
    if (shape === 1)
      filter = { ...clause(), $or: [clause(), clause(), clause()].slice(0, 2 + Math.floor(rnd() * 2)) };
    if (shape === 2) filter = { $and: [clause(), { $or: [clause(), clause()] }] };
    const sort = pick([{ _id: 1 }, { a: 1, _id: 1 }, { c: 1, d: -1, _id: 1 }, { d: -1, _id: 1 }]);
    return { filter, sort, limit: rnd() < 0.5 ? 1 + Math.floor(rnd() * 10) : 0 };
  }

  const run = (c: Collection<Row>, q: ReturnType<typeof query>) =>
    c.find(q.filter).sort(q.sort).limit(q.limit).toArray();

  it('300 random queries, with inserts, updates and deletes between rounds', async () => {
    const rnd = seededRandom(4242);
    let indexedPaths = 0;
    let nextId = 10_000;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 50; i++) {
        const q = query(rnd);
        const want = await run(scanned, q);
        expect({ q, docs: await run(indexed, q) }).toEqual({ q, docs: want });
        if (!usingRealMongo) {
          const plan = (await explainFind('random_paths_indexed', q.filter)).queryPlanner.winningPlan;
          if (plan.stage !== 'COLLSCAN') indexedPaths++;
        }
      }
      for (let i = 0; i < 20; i++) {
        const d = row(nextId++, rnd);
        const id = Math.floor(rnd() * 400);
        const f = pick4(rnd);
        const v = value(rnd);
        for (const c of [indexed, scanned]) {
          await c.insertOne({ ...d });
          await c.updateOne({ _id: id }, v === undefined ? { $unset: { [f]: '' } } : { $set: { [f]: v } });
          await c.deleteOne({ _id: (id * 31) % 400 });
        }
      }
    }
    // The property covers the index paths, not only scans.
    if (!usingRealMongo) expect(indexedPaths).toBeGreaterThan(60);
  });
});

function pick4(rnd: () => number): string {
  return ['a', 'b', 'c', 'd'][Math.floor(rnd() * 4)];
}
