// Views: read-only collections whose reads (find, aggregate, count, distinct, $lookup) run the
// view's pipeline on its source first; writes are 166 CommandNotSupportedOnView; listCollections
// says type 'view'; views on views resolve; the definition survives a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../src';
import { failure, usingRealMongo, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

beforeAll(async () => {
  await t.db.collection('loans').insertMany([
    { _id: 1, lender: 'a', rate: 5, active: true },
    { _id: 2, lender: 'b', rate: 7, active: true },
    { _id: 3, lender: 'a', rate: 9, active: false },
    { _id: 4, lender: 'c', rate: 6, active: true },
  ] as never[]);
  await t.db.createCollection('active', {
    viewOn: 'loans',
    pipeline: [{ $match: { active: true } }, { $project: { active: 0 } }],
  });
});

describe('views', () => {
  it('find runs the view pipeline, then the filter, sort, skip, limit and projection', async () => {
    const view = t.db.collection('active');
    expect(await view.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, lender: 'a', rate: 5 },
      { _id: 2, lender: 'b', rate: 7 },
      { _id: 4, lender: 'c', rate: 6 },
    ]);
    expect(
      await view
        .find({ rate: { $gte: 6 } }, { projection: { lender: 1 } })
        .sort({ rate: -1 })
        .limit(1)
        .toArray(),
    ).toEqual([{ _id: 2, lender: 'b' }]);
  });

  it('aggregate, count and distinct read through the view', async () => {
    const view = t.db.collection('active');
    expect(await view.aggregate([{ $group: { _id: null, total: { $sum: '$rate' } } }]).toArray()).toEqual([
      { _id: null, total: 18 },
    ]);
    expect(await view.countDocuments({ lender: 'a' })).toBe(1);
    expect(await view.estimatedDocumentCount()).toBe(3);
    expect((await view.distinct('lender')).sort()).toEqual(['a', 'b', 'c']);
  });

  it('a view on a view, and $lookup from a view', async () => {
    await t.db.createCollection('cheap', { viewOn: 'active', pipeline: [{ $match: { rate: { $lt: 7 } } }] });
    expect(await t.db.collection('cheap').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, lender: 'a', rate: 5 },
      { _id: 4, lender: 'c', rate: 6 },
    ]);
    await t.db.collection('lenders').insertMany([{ _id: 'a' }, { _id: 'b' }] as never[]);
    const joined = await t.db
      .collection('lenders')
      .aggregate([
        { $lookup: { from: 'cheap', localField: '_id', foreignField: 'lender', as: 'cheap' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(joined.map((l) => [l._id, (l.cheap as unknown[]).length])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
  });

  it('listCollections says type view, with its definition and readOnly', async () => {
    const [info] = await t.db.listCollections({ name: 'active' }).toArray();
    expect(info).toEqual({
      name: 'active',
      type: 'view',
      options: { viewOn: 'loans', pipeline: [{ $match: { active: true } }, { $project: { active: 0 } }] },
      info: { readOnly: true },
    });
    const [source] = await t.db.listCollections({ name: 'loans' }, { nameOnly: true }).toArray();
    expect(source).toEqual({ name: 'loans', type: 'collection' });
  });

  it('writes and index commands on a view are 166, and the source is unchanged', async () => {
    const view = t.db.collection('active');
    const attempts: Array<Promise<unknown>> = [
      view.insertOne({ _id: 9 } as never),
      view.updateOne({ _id: 1 } as never, { $set: { rate: 1 } }),
      view.updateOne({ _id: 9 } as never, { $set: { rate: 1 } }, { upsert: true }),
      view.deleteOne({ _id: 1 } as never),
      view.findOneAndUpdate({ _id: 1 } as never, { $set: { rate: 1 } }),
      view.findOneAndDelete({ _id: 1 } as never),
      view.createIndex({ rate: 1 }),
      view.listIndexes().toArray(),
      t.db
        .collection('loans')
        .aggregate([{ $out: 'active' }])
        .toArray(),
      t.db.renameCollection('active', 'renamed'),
    ];
    for (const attempt of attempts) {
      const err = await failure(attempt);
      expect(err.code).toBe(166);
      expect(err.message).toMatch(/is a view, not a collection/);
    }
    expect(await t.db.collection('loans').countDocuments()).toBe(4);
    expect(await t.db.collection('loans').findOne({ _id: 1 } as never)).toMatchObject({ rate: 5 });
    expect(await view.countDocuments()).toBe(3);
  });

  it('bad definitions are refused and create nothing; a view is dropped like a collection', async () => {
    expect((await failure(t.db.createCollection('bad1', { viewOn: 5 } as never))).code).toBe(14);
    expect(
      (await failure(t.db.createCollection('bad2', { viewOn: 'loans', pipeline: {} } as never))).code,
    ).toBe(14);
    expect(
      (await failure(t.db.createCollection('bad3', { viewOn: 'loans', pipeline: [{ $out: 'x' }] }))).code,
    ).toBe(167);
    expect(
      (await failure(t.db.createCollection('bad4', { viewOn: 'loans', validator: { a: 1 } }))).code,
    ).toBe(72);
    expect((await failure(t.db.createCollection('active', { viewOn: 'loans' }))).code).toBe(48);
    const names = (await t.db.listCollections().toArray()).map((c) => c.name);
    expect(names.filter((n) => n.startsWith('bad'))).toEqual([]);
    await t.db.createCollection('temporary', { viewOn: 'loans' });
    expect(await t.db.collection('temporary').countDocuments()).toBe(4);
    expect(await t.db.dropCollection('temporary')).toBe(true);
    expect(await t.db.collection('temporary').countDocuments()).toBe(0);
  });

  it('a view cannot be created inside a transaction (263)', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await t.db.collection('loans').findOne({}, { session });
      const err = await failure(t.db.createCollection('in-txn', { viewOn: 'loans', session } as never));
      expect(err.code).toBe(263);
    } finally {
      await session.abortTransaction().catch(() => undefined);
      await session.endSession();
    }
  });
});

(usingRealMongo ? describe.skip : describe)('views on disk', () => {
  it('a view survives a restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'emb-views-'));
    try {
      const first = await startEmbeddedMongo({ port: 0, dbPath: dir, replSet: 'rs0' });
      let c = await MongoClient.connect(first.uri);
      await c
        .db('v')
        .collection('src')
        .insertMany([{ a: 1 }, { a: 2 }]);
      await c.db('v').createCollection('big', { viewOn: 'src', pipeline: [{ $match: { a: { $gt: 1 } } }] });
      await c.close();
      await first.stop();
      const second = await startEmbeddedMongo({ port: 0, dbPath: dir, replSet: 'rs0' });
      c = await MongoClient.connect(second.uri);
      expect(
        await c
          .db('v')
          .collection('big')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).toEqual([{ a: 2 }]);
      await c.close();
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
