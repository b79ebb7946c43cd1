// Collations on indexes and as a collection's default, as MongoDB 7.0 has
// them: a collated unique index makes strings its collation calls equal duplicates, listIndexes and
// listCollections show the collation in full, and operations without a collation of their own use
// the collection's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../src';
import { failure, usingRealMongo, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

const caseInsensitive = { locale: 'en', strength: 2 };
// What MongoDB 7.0 lists for `{ locale: 'en', strength: 2 }`.
const FULL_EN_2 = {
  locale: 'en',
  caseLevel: false,
  caseFirst: 'off',
  strength: 2,
  numericOrdering: false,
  alternate: 'non-ignorable',
  maxVariable: 'punct',
  normalization: false,
  backwards: false,
  version: '57.1',
};

describe('collated indexes', () => {
  it("a unique index with strength 2 makes 'ABC' and 'abc' duplicates (E11000), listed with its full collation", async () => {
    const c = t.db.collection('ci_unique');
    await c.createIndex({ name: 1 }, { unique: true, collation: caseInsensitive });
    await c.insertOne({ name: 'ABC' });
    const err = await failure(c.insertOne({ name: 'abc' }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ name: 1 });
    expect(err.message).toMatch(/index: name_1 collation: \{ locale: "en"/);
    await c.insertOne({ name: 'abd' });
    // Accents still count at strength 2.
    await c.insertOne({ name: 'Àbc' });
    expect(await c.countDocuments()).toBe(3);

    const byName = Object.fromEntries((await c.listIndexes().toArray()).map((i) => [i.name, i]));
    expect(byName.name_1.collation).toEqual(FULL_EN_2);
    expect(byName.name_1.unique).toBe(true);
    expect(byName._id_.collation).toBeUndefined();
  });

  it('updates and upserts into a collated key are duplicates too; building one over existing duplicates fails', async () => {
    const c = t.db.collection<{ _id: number; email: string }>('ci_update');
    await c.createIndex({ email: 1 }, { unique: true, collation: caseInsensitive });
    await c.insertMany([
      { _id: 1, email: 'a@example.com' },
      { _id: 2, email: 'b@example.com' },
    ]);
    expect((await failure(c.updateOne({ _id: 2 }, { $set: { email: 'A@EXAMPLE.com' } }))).code).toBe(11000);
    expect(
      (await failure(c.updateOne({ _id: 3 }, { $set: { email: 'B@example.COM' } }, { upsert: true }))).code,
    ).toBe(11000);
    // A document keeps its own key when only its case changes.
    await c.updateOne({ _id: 1 }, { $set: { email: 'A@example.com' } });

    const d = t.db.collection('ci_build');
    await d.insertMany([{ s: 'x' }, { s: 'X' }]);
    expect((await failure(d.createIndex({ s: 1 }, { unique: true, collation: caseInsensitive }))).code).toBe(
      11000,
    );
    // Without the collation the two are different keys.
    await d.createIndex({ s: 1 }, { unique: true });
  });

  it('the same keys under another collation are another index; dropIndex by key pattern is then ambiguous (181)', async () => {
    const c = t.db.collection('ci_two');
    await c.createIndex({ s: 1 });
    await c.createIndex({ s: 1 }, { name: 's_ci', collation: caseInsensitive });
    await c.createIndex({ s: 1 }, { name: 's_simple_again', collation: { locale: 'simple' } }).then(
      () => {
        throw new Error('expected IndexOptionsConflict');
      },
      (err: { code?: number }) => expect(err.code).toBe(85),
    );
    const listed = await c.listIndexes().toArray();
    expect(listed.map((i) => i.name)).toEqual(['_id_', 's_1', 's_ci']);
    expect(listed[1].collation).toBeUndefined();
    expect((await failure(c.dropIndex({ s: 1 } as never))).code).toBe(181);
    await c.dropIndex('s_ci');
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 's_1']);
  });

  it('inside a transaction a collated duplicate is E11000 too', async () => {
    const c = t.db.collection('ci_txn');
    await c.createIndex({ name: 1 }, { unique: true, collation: caseInsensitive });
    await c.insertOne({ name: 'Zed' });
    const session = t.client.startSession();
    try {
      session.startTransaction();
      const err = await failure(c.insertOne({ name: 'zED' }, { session }));
      expect(err.code).toBe(11000);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await c.countDocuments()).toBe(1);
  });
});

describe('a collection default collation', () => {
  it('is listed in full by listCollections, and the _id index and new indexes inherit it', async () => {
    await t.db.createCollection('cd_listed', { collation: caseInsensitive });
    const [info] = await t.db.listCollections({ name: 'cd_listed' }, { nameOnly: false }).toArray();
    expect(info.options?.collation).toEqual(FULL_EN_2);
    expect(info.idIndex?.collation).toEqual(FULL_EN_2);

    const c = t.db.collection('cd_listed');
    await c.createIndex({ a: 1 });
    await c.createIndex({ b: 1 }, { collation: { locale: 'simple' } });
    await c.createIndex({ d: 1 }, { collation: { locale: 'fr', strength: 1 } });
    const byName = Object.fromEntries((await c.listIndexes().toArray()).map((i) => [i.name, i]));
    expect(byName._id_.collation).toEqual(FULL_EN_2);
    expect(byName.a_1.collation).toEqual(FULL_EN_2);
    expect(byName.b_1.collation).toBeUndefined();
    expect(byName.d_1.collation).toEqual({ ...FULL_EN_2, locale: 'fr', strength: 1 });
  });

  it('applies to find, count, distinct, aggregate, update, delete and findAndModify without a collation of their own', async () => {
    await t.db.createCollection('cd_ops', { collation: caseInsensitive });
    const c = t.db.collection('cd_ops');
    await c.insertMany([
      { _id: 1, s: 'cafe' },
      { _id: 2, s: 'CAFE' },
      { _id: 3, s: 'café' },
    ] as never[]);
    const ids = async (filter: object) => (await c.find(filter).toArray()).map((d) => d._id).sort();
    expect(await ids({ s: 'Cafe' })).toEqual([1, 2]);
    // An operation's own collation wins, `simple` included.
    expect(
      (await c.find({ s: 'Cafe' }, { collation: { locale: 'simple' } }).toArray()).map((d) => d._id),
    ).toEqual([]);
    expect(await c.countDocuments({ s: 'cAfE' })).toBe(2);
    expect(await c.distinct('s', { s: { $in: ['cafe', 'café'] } })).toHaveLength(2);
    const agg = await c
      .aggregate<{ _id: number }>([{ $match: { s: 'CAFE' } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(agg.map((d) => d._id)).toEqual([1, 2]);
    expect((await c.updateMany({ s: 'CaFe' }, { $set: { hit: true } })).modifiedCount).toBe(2);
    const found = await c.findOneAndUpdate(
      { s: 'CAFÉ' },
      { $set: { accent: true } },
      { returnDocument: 'after' },
    );
    expect(found?._id).toBe(3);
    expect((await c.deleteMany({ s: 'cafe' })).deletedCount).toBe(2);
    expect(await c.countDocuments()).toBe(1);
  });

  it("makes _id values it calls equal duplicates of the _id_ index ('a' and 'A' at strength 2)", async () => {
    await t.db.createCollection('cd_ids', { collation: caseInsensitive });
    const c = t.db.collection<{ _id: string }>('cd_ids');
    await c.insertOne({ _id: 'a' });
    const err = await failure(c.insertOne({ _id: 'A' }));
    expect(err.code).toBe(11000);
    expect(err.message).toMatch(/index: _id_ collation/);
    expect((await c.findOne({ _id: 'A' }))?._id).toBe('a');
  });

  it('validators match under it, whatever collation the write has', async () => {
    await t.db.createCollection('cd_validated', {
      collation: caseInsensitive,
      validator: { status: { $in: ['open', 'closed'] } },
    });
    const c = t.db.collection('cd_validated');
    await c.insertOne({ _id: 1, status: 'OPEN' } as never);
    expect((await failure(c.insertOne({ status: 'pending' }))).code).toBe(121);
    await c.updateOne(
      { _id: 1 } as never,
      { $set: { status: 'Closed' } },
      { collation: { locale: 'simple' } },
    );
  });

  it("{ locale: 'simple' } is no default: nothing listed, binary comparisons", async () => {
    await t.db.createCollection('cd_simple', { collation: { locale: 'simple' } });
    const [info] = await t.db.listCollections({ name: 'cd_simple' }, { nameOnly: false }).toArray();
    expect(info.options).toBeDefined();
    expect(info.options?.collation).toBeUndefined();
    const c = t.db.collection('cd_simple');
    await c.insertMany([{ s: 'a' }, { s: 'A' }]);
    expect(await c.countDocuments({ s: 'a' })).toBe(1);
  });
});

(usingRealMongo ? describe.skip : describe)('after a restart', () => {
  it('collated indexes and the collection default come back from the journal', async () => {
    const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-collation-'));
    try {
      for (const round of [1, 2]) {
        const server = await startEmbeddedMongo({ port: 0, replSet: 'rs0', dbPath });
        const client = await MongoClient.connect(server.uri);
        try {
          const db = client.db('collation_restart');
          if (round === 1) {
            await db.createCollection('people', { collation: caseInsensitive });
            await db.collection('people').createIndex({ email: 1 }, { unique: true });
            await db.collection('people').insertOne({ email: 'X@example.com' });
          } else {
            const c = db.collection('people');
            expect((await failure(c.insertOne({ email: 'x@EXAMPLE.com' }))).code).toBe(11000);
            expect(await c.countDocuments({ email: 'x@example.COM' })).toBe(1);
          }
        } finally {
          await client.close();
          await server.stop();
        }
      }
    } finally {
      fs.rmSync(dbPath, { recursive: true, force: true });
    }
  });
});
