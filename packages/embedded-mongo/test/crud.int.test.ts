import { Long, MongoServerError, ObjectId } from 'mongodb';
import { useTestDatabase } from './support';

const t = useTestDatabase();

describe('documents', () => {
  it('inserts, finds, updates and deletes documents', async () => {
    const coll = t.db.collection('people');
    const { insertedIds } = await coll.insertMany([
      { name: 'ann', age: 31 },
      { name: 'bob', age: 42 },
      { name: 'cy', age: 25 },
    ]);
    expect(Object.keys(insertedIds)).toHaveLength(3);
    expect(await coll.findOne({ name: 'bob' })).toMatchObject({ name: 'bob', age: 42 });
    const upd = await coll.updateOne({ name: 'ann' }, { $set: { age: 32 } });
    expect(upd).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const same = await coll.updateOne({ name: 'ann' }, { $set: { age: 32 } });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    const many = await coll.updateMany({ age: { $gte: 30 } }, { $inc: { age: 1 } });
    expect(many.modifiedCount).toBe(2);
    expect(
      (await coll.find({}, { sort: { age: 1 }, projection: { _id: 0, name: 1 } }).toArray()).map(
        (d) => d.name,
      ),
    ).toEqual(['cy', 'ann', 'bob']);
    expect((await coll.deleteMany({ age: { $lt: 40 } })).deletedCount).toBe(2);
    expect(await coll.countDocuments()).toBe(1);
  });

  it('keeps _id as the first field even when the client puts it last', async () => {
    const coll = t.db.collection('order');
    await coll.insertOne({ b: 1, a: 2, _id: 'x' } as never);
    const raw = await coll.findOne({ _id: 'x' } as never);
    expect(Object.keys(raw!)).toEqual(['_id', 'b', 'a']);
  });

  it('returns every document through getMore when results exceed the first batch', async () => {
    const coll = t.db.collection('many');
    await coll.insertMany(Array.from({ length: 1050 }, (_, i) => ({ i })));
    const all = await coll.find({}, { batchSize: 100 }).sort({ i: -1 }).toArray();
    expect(all).toHaveLength(1050);
    expect(all[0].i).toBe(1049);
    expect(all[1049].i).toBe(0);
    const cursor = coll.find({}).batchSize(10);
    await cursor.next();
    await cursor.close();
  });

  it('applies skip, limit and projection together', async () => {
    const coll = t.db.collection('page');
    await coll.insertMany(
      Array.from({ length: 20 }, (_, i) => ({ i, tag: i % 2 ? 'odd' : 'even', extra: 'x' })),
    );
    const page = await coll
      .find({ tag: 'odd' }, { projection: { extra: 0 } })
      .sort({ i: 1 })
      .skip(2)
      .limit(3)
      .toArray();
    expect(page.map((d) => d.i)).toEqual([5, 7, 9]);
    expect(page[0]).not.toHaveProperty('extra');
  });

  it('finds and modifies atomically, returning before or after images', async () => {
    const coll = t.db.collection('counters');
    await coll.insertOne({ _id: 'seq', n: 1 } as never);
    const before = await coll.findOneAndUpdate(
      { _id: 'seq' } as never,
      { $inc: { n: 1 } },
      { returnDocument: 'before' },
    );
    expect(before!.n).toBe(1);
    const after = await coll.findOneAndUpdate(
      { _id: 'seq' } as never,
      { $inc: { n: 1 } },
      { returnDocument: 'after' },
    );
    expect(after!.n).toBe(3);
    const created = await coll.findOneAndUpdate(
      { _id: 'other' } as never,
      { $setOnInsert: { n: 10 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(created).toEqual({ _id: 'other', n: 10 });
    const removed = await coll.findOneAndDelete({ _id: 'seq' } as never);
    expect(removed!.n).toBe(3);
    expect(await coll.findOneAndReplace({ _id: 'nope' } as never, { n: 1 })).toBeNull();
  });

  it('counts and lists distinct values, flattening arrays', async () => {
    const coll = t.db.collection('distinct');
    await coll.insertMany([{ tags: ['a', 'b'] }, { tags: 'c' }, { tags: ['a'] }, {}]);
    expect((await coll.distinct('tags')).sort()).toEqual(['a', 'b', 'c']);
    expect(await coll.countDocuments({ tags: 'a' })).toBe(2);
    expect(await coll.estimatedDocumentCount()).toBe(4);
  });

  it('generates ObjectIds for documents without _id', async () => {
    const coll = t.db.collection('ids');
    const res = await coll.insertOne({ a: 1 });
    expect(res.insertedId).toBeInstanceOf(ObjectId);
    expect(await coll.findOne({ _id: res.insertedId })).toMatchObject({ a: 1 });
  });
});

describe('errors', () => {
  it('answers 48 NamespaceExists when creating an existing collection', async () => {
    await t.db.createCollection('dupcoll');
    await expect(t.db.createCollection('dupcoll')).rejects.toMatchObject({
      code: 48,
      codeName: 'NamespaceExists',
    });
  });

  it('answers 26 NamespaceNotFound when listing indexes of a missing collection', async () => {
    await expect(t.db.collection('missing').indexes()).rejects.toMatchObject({ code: 26 });
  });

  it('answers 59 CommandNotFound for an unknown command', async () => {
    await expect(t.db.command({ frobnicate: 1 })).rejects.toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
    });
  });

  it('reports duplicate _id as 11000 with keyPattern and keyValue in writeErrors', async () => {
    const coll = t.db.collection('dups');
    await coll.insertOne({ _id: 7 } as never);
    const err = (await coll.insertOne({ _id: 7 } as never).catch((e: unknown) => e)) as MongoServerError;
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ _id: 1 });
    expect(err.keyValue).toEqual({ _id: 7 });
  });

  it('keeps inserting after a duplicate when the batch is unordered', async () => {
    const coll = t.db.collection('unordered');
    await coll.insertOne({ _id: 2 } as never);
    const err = (await coll
      .insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }] as never[], { ordered: false })
      .catch((e: unknown) => e)) as { insertedCount?: number; result?: { insertedCount: number } };
    expect(err).toBeInstanceOf(Error);
    expect(await coll.countDocuments()).toBe(3);
  });

  it('refuses to change _id with 66 ImmutableField', async () => {
    const coll = t.db.collection('immutable');
    await coll.insertOne({ _id: 1, a: 1 } as never);
    await expect(coll.updateOne({ _id: 1 } as never, { $set: { _id: 2 } })).rejects.toMatchObject({
      code: 66,
    });
  });

  it('refuses a $inc on a string with 14 TypeMismatch', async () => {
    const coll = t.db.collection('typemismatch');
    await coll.insertOne({ _id: 1, a: 'x' } as never);
    await expect(coll.updateOne({ _id: 1 } as never, { $inc: { a: 1 } })).rejects.toMatchObject({ code: 14 });
  });

  it('refuses to insert a document over 16 MiB with 10334 BSONObjectTooLarge', async () => {
    const coll = t.db.collection('huge');
    const err = (await coll
      .insertOne({ s: 'x'.repeat(16 * 1024 * 1024) })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(10334);
    expect(await coll.countDocuments()).toBe(0);
  });

  it('refuses an update that grows a document past 16 MiB', async () => {
    const coll = t.db.collection('big');
    await coll.insertOne({ _id: 1, s: '' } as never);
    const big = 'x'.repeat(9 * 1024 * 1024);
    await coll.updateOne({ _id: 1 } as never, { $set: { a: big } });
    const err = (await coll
      .updateOne({ _id: 1 } as never, { $set: { b: big } })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err).toBeInstanceOf(MongoServerError);
    expect([10334, 17419]).toContain(err.code);
    const stored = await coll.findOne({ _id: 1 } as never, { projection: { b: 1 } });
    expect(stored).not.toHaveProperty('b');
  });

  it('answers 43 CursorNotFound for a getMore on an unknown cursor', async () => {
    await expect(t.db.command({ getMore: Long.fromNumber(12345), collection: 'x' })).rejects.toMatchObject({
      code: 43,
    });
  });
});

describe('namespaces', () => {
  it('lists, drops collections and databases', async () => {
    await t.db.createCollection('listed');
    const names = (await t.db.listCollections().toArray()).map((c) => c.name);
    expect(names).toContain('listed');
    expect(await t.db.collection('listed').drop()).toBe(true);
    expect(await t.db.listCollections({ name: 'listed' }).toArray()).toHaveLength(0);
    const dbs = await t.client.db('admin').admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).toContain(t.db.databaseName);
  });
});

describe('sorting with a limit', () => {
  it('returns the same top documents as a full sort, ties in insertion order', async () => {
    const coll = t.db.collection('topk');
    await coll.insertMany(Array.from({ length: 400 }, (_, i) => ({ i, score: (i * 37) % 50, group: i % 7 })));
    const full = await coll.find({}, { sort: { score: -1, i: 1 } }).toArray();
    const top = await coll
      .find({}, { sort: { score: -1, i: 1 } })
      .skip(3)
      .limit(10)
      .toArray();
    expect(top.map((d) => d.i)).toEqual(full.slice(3, 13).map((d) => d.i));
    const ties = await coll
      .find({ group: 3 }, { sort: { score: 1 } })
      .limit(5)
      .toArray();
    const allTies = await coll.find({ group: 3 }, { sort: { score: 1 } }).toArray();
    expect(ties.map((d) => d.i)).toEqual(allTies.slice(0, 5).map((d) => d.i));
    const agg = await coll.aggregate([{ $sort: { score: 1, i: -1 } }, { $limit: 4 }]).toArray();
    const aggFull = await coll.aggregate([{ $sort: { score: 1, i: -1 } }]).toArray();
    expect(agg.map((d) => d.i)).toEqual(aggFull.slice(0, 4).map((d) => d.i));
  });
});
