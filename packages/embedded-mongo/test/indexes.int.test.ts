import { MongoServerError } from 'mongodb';
import { usingRealMongo, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0', ttlIntervalMs: 100 });

describe('indexes', () => {
  it('creates, lists and drops single and compound indexes', async () => {
    const coll = t.db.collection('ix');
    await coll.createIndex({ a: 1 });
    await coll.createIndex({ a: 1, b: -1 }, { name: 'ab' });
    const names = (await coll.indexes()).map((i) => i.name);
    expect(names).toEqual(['_id_', 'a_1', 'ab']);
    await coll.dropIndex('ab');
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_', 'a_1']);
    await expect(coll.dropIndex('nope')).rejects.toMatchObject({ code: 27 });
  });

  it('rejects a duplicate on a unique index with 11000, keyPattern and keyValue', async () => {
    const coll = t.db.collection('uniq');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertOne({ email: 'a@x' });
    const err = (await coll.insertOne({ email: 'a@x' }).catch((e: unknown) => e)) as MongoServerError;
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: 'a@x' });
    await coll.insertOne({ email: 'b@x' });
    await expect(coll.updateOne({ email: 'b@x' }, { $set: { email: 'a@x' } })).rejects.toMatchObject({
      code: 11000,
    });
  });

  it('reports a findAndModify duplicate at the top level', async () => {
    const coll = t.db.collection('uniq');
    const err = (await coll
      .findOneAndUpdate({ email: 'b@x' }, { $set: { email: 'a@x' } })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ email: 'a@x' });
  });

  it('enforces compound uniqueness on the combination only', async () => {
    const coll = t.db.collection('compound');
    await coll.createIndex({ org: 1, user: 1 }, { unique: true });
    await coll.insertMany([
      { org: 1, user: 1 },
      { org: 1, user: 2 },
      { org: 2, user: 1 },
    ]);
    await expect(coll.insertOne({ org: 1, user: 2 })).rejects.toMatchObject({
      code: 11000,
      keyValue: { org: 1, user: 2 },
    });
  });

  it('treats every array element as a key of a unique index', async () => {
    const coll = t.db.collection('multikey');
    await coll.createIndex({ tags: 1 }, { unique: true });
    await coll.insertOne({ tags: ['a', 'b'] });
    await expect(coll.insertOne({ tags: ['c', 'b'] })).rejects.toMatchObject({ code: 11000 });
    await coll.insertOne({ tags: ['c'] });
    expect(await coll.countDocuments({ tags: 'b' })).toBe(1);
  });

  it('lets a sparse unique index hold many documents without the field', async () => {
    const coll = t.db.collection('sparse');
    await coll.createIndex({ code: 1 }, { unique: true, sparse: true });
    await coll.insertMany([{ x: 1 }, { x: 2 }, { code: 'k' }]);
    await expect(coll.insertOne({ code: 'k' })).rejects.toMatchObject({ code: 11000 });
  });

  it('only enforces a partial unique index on matching documents', async () => {
    const coll = t.db.collection('partial');
    await coll.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await coll.insertMany([
      { email: 'a', active: false },
      { email: 'a', active: false },
      { email: 'a', active: true },
    ]);
    await expect(coll.insertOne({ email: 'a', active: true })).rejects.toMatchObject({ code: 11000 });
  });

  it('refuses to build a unique index over existing duplicates', async () => {
    const coll = t.db.collection('prebuilt');
    await coll.insertMany([{ k: 1 }, { k: 1 }]);
    await expect(coll.createIndex({ k: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
  });

  it('answers point queries on _id and indexed fields from the index, examining only the hits', async () => {
    const coll = t.db.collection('point');
    await coll.createIndex({ ref: 1 });
    await coll.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: i, ref: `r${i}`, i })) as never[]);
    expect(await coll.findOne({ ref: 'r1234' })).toMatchObject({ i: 1234 });
    expect(await coll.countDocuments({ ref: { $in: ['r1', 'r2', 'nope'] } })).toBe(2);
    const byRef = (await coll.find({ ref: 'r1234' }).explain('executionStats')) as {
      executionStats: { totalDocsExamined: number; nReturned: number };
    };
    expect(byRef.executionStats).toMatchObject({ totalDocsExamined: 1, nReturned: 1 });
    const byId = (await coll.find({ _id: 77 } as never).explain('executionStats')) as {
      executionStats: { totalDocsExamined: number };
    };
    expect(byId.executionStats.totalDocsExamined).toBe(1);
    const scan = (await coll.find({ i: 5 }).explain('executionStats')) as {
      executionStats: { totalDocsExamined: number };
    };
    expect(scan.executionStats.totalDocsExamined).toBe(2000);
  });

  it('answers { field: null } from a full index: null and missing both match, nothing else is read', async () => {
    const coll = t.db.collection('pending');
    await coll.createIndex({ publishedAt: 1 });
    await coll.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({
        _id: i,
        ...(i % 100 === 0 ? {} : { publishedAt: i % 100 === 1 ? null : new Date(1_700_000_000_000 + i) }),
      })) as never[],
    );
    const pending = await coll.find({ publishedAt: null }).sort({ _id: 1 }).toArray();
    expect(pending.map((d) => d._id)).toEqual([
      0, 1, 100, 101, 200, 201, 300, 301, 400, 401, 500, 501, 600, 601, 700, 701, 800, 801, 900, 901,
    ]);
    const plan = (await coll.find({ publishedAt: null }).explain('executionStats')) as {
      executionStats: { totalDocsExamined: number; nReturned: number };
    };
    expect(plan.executionStats).toMatchObject({ totalDocsExamined: 20, nReturned: 20 });
    // An update that keeps the key does not move the document: index hits come back in insertion order.
    await coll.updateOne({ _id: 0 } as never, { $inc: { attempts: 1 } });
    expect((await coll.findOne({ publishedAt: null }))?._id).toBe(0);
    await coll.updateOne({ _id: 0 } as never, { $set: { publishedAt: new Date() } });
    expect(await coll.countDocuments({ publishedAt: { $eq: null } })).toBe(19);
    expect((await coll.findOne({ publishedAt: null }))?._id).toBe(1);
  });

  it('finds documents by the first field of a compound index, following updates and deletes', async () => {
    const coll = t.db.collection('prefix');
    await coll.createIndex({ org: 1, at: -1 });
    await coll.insertMany(
      Array.from({ length: 300 }, (_, i) => ({ org: i % 3, at: i, tags: i % 2 ? ['a', 'b'] : [] })),
    );
    expect(await coll.countDocuments({ org: 1 })).toBe(100);
    await coll.updateMany({ org: 1, at: { $lt: 30 } }, { $set: { org: 7 } });
    await coll.deleteMany({ org: 1, at: { $gte: 290 } });
    expect(await coll.countDocuments({ org: 1 })).toBe(100 - 10 - 3);
    expect(await coll.countDocuments({ org: 7 })).toBe(10);
    const latest = await coll.find({ org: 2 }).sort({ at: -1 }).limit(2).toArray();
    expect(latest.map((d) => d.at)).toEqual([299, 296]);
  });

  (usingRealMongo ? it.skip : it)('removes documents whose TTL date has passed', async () => {
    const coll = t.db.collection('ttl');
    await coll.createIndex({ at: 1 }, { expireAfterSeconds: 1 });
    await coll.insertMany([
      { at: new Date(Date.now() - 5000), old: true },
      { at: new Date(Date.now() + 60_000) },
      { at: 'not a date' },
    ]);
    for (let i = 0; i < 50 && (await coll.countDocuments({ old: true })) > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await coll.countDocuments({ old: true })).toBe(0);
    expect(await coll.countDocuments()).toBe(2);
  });
});
