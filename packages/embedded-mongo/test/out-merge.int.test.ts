// $out and $merge write the pipeline's results as MongoDB 7.0 does.
import { failure, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

describe('$out', () => {
  it('replaces the target’s documents, keeps its indexes, and returns no documents', async () => {
    const src = t.db.collection('out_src');
    await src.insertMany([
      { _id: 1, g: 'a', n: 1 },
      { _id: 2, g: 'a', n: 2 },
      { _id: 3, g: 'b', n: 5 },
    ] as never[]);
    const dst = t.db.collection('out_dst');
    await dst.insertOne({ _id: 'old' } as never);
    await dst.createIndex({ total: 1 });
    const out = await src
      .aggregate([{ $group: { _id: '$g', total: { $sum: '$n' } } }, { $out: 'out_dst' }])
      .toArray();
    expect(out).toEqual([]);
    expect(await dst.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', total: 3 },
      { _id: 'b', total: 5 },
    ]);
    expect((await dst.listIndexes().toArray()).map((i) => i.name).sort()).toEqual(['_id_', 'total_1']);
  });

  it('a duplicate key in the results fails and leaves the target as it was', async () => {
    const src = t.db.collection('out_dup_src');
    await src.insertMany([{ k: 1 }, { k: 1 }]);
    const dst = t.db.collection('out_dup_dst');
    await dst.createIndex({ k: 1 }, { unique: true });
    await dst.insertOne({ _id: 'kept', k: 9 } as never);
    const err = await failure(
      src.aggregate([{ $project: { _id: 0, k: 1 } }, { $out: 'out_dup_dst' }]).toArray(),
    );
    expect(err.code).toBe(11000);
    expect(await dst.find().toArray()).toEqual([{ _id: 'kept', k: 9 }]);
  });

  it('only as the last stage (40601), and not in a transaction (263)', async () => {
    const src = t.db.collection('out_rules');
    await src.insertOne({ a: 1 });
    expect((await failure(src.aggregate([{ $out: 'x' }, { $match: {} }]).toArray())).code).toBe(40601);
    const session = t.client.startSession();
    try {
      session.startTransaction();
      expect((await failure(src.aggregate([{ $out: 'x' }], { session }).toArray())).code).toBe(263);
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
  });
});

describe('$merge', () => {
  it('defaults: merge into matches on _id, insert the rest', async () => {
    const dst = t.db.collection('merge_dst');
    await dst.insertMany([{ _id: 1, keep: true, v: 'old' }] as never[]);
    const src = t.db.collection('merge_src');
    await src.insertMany([
      { _id: 1, v: 'new' },
      { _id: 2, v: 'two' },
    ] as never[]);
    await src.aggregate([{ $merge: 'merge_dst' }]).toArray();
    expect(await dst.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, keep: true, v: 'new' },
      { _id: 2, v: 'two' },
    ]);
  });

  it('whenMatched replace / keepExisting / pipeline with $$new, whenNotMatched discard', async () => {
    const dst = t.db.collection('merge_modes');
    await dst.insertMany([
      { _id: 1, n: 1, x: 'x' },
      { _id: 2, n: 2 },
    ] as never[]);
    const src = t.db.collection('merge_modes_src');
    await src.insertMany([
      { _id: 1, n: 10 },
      { _id: 3, n: 30 },
    ] as never[]);
    await src
      .aggregate([{ $merge: { into: 'merge_modes', whenMatched: 'replace', whenNotMatched: 'discard' } }])
      .toArray();
    expect(await dst.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 10 },
      { _id: 2, n: 2 },
    ]);
    await src.aggregate([{ $merge: { into: 'merge_modes', whenMatched: 'keepExisting' } }]).toArray();
    expect(await dst.findOne({ _id: 3 } as never)).toEqual({ _id: 3, n: 30 });
    await src
      .aggregate([
        { $merge: { into: 'merge_modes', whenMatched: [{ $set: { n: { $add: ['$n', '$$new.n'] } } }] } },
      ])
      .toArray();
    expect(await dst.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 20 },
      { _id: 2, n: 2 },
      { _id: 3, n: 60 },
    ]);
  });

  it('whenMatched fail is 11000, whenNotMatched fail is 13113, `on` needs a unique index (51183)', async () => {
    const dst = t.db.collection('merge_fail');
    await dst.insertOne({ _id: 1, k: 'a' } as never);
    const src = t.db.collection('merge_fail_src');
    await src.insertMany([{ _id: 1, k: 'a' }] as never[]);
    expect(
      (await failure(src.aggregate([{ $merge: { into: 'merge_fail', whenMatched: 'fail' } }]).toArray()))
        .code,
    ).toBe(11000);
    await src.insertOne({ _id: 2, k: 'b' } as never);
    expect(
      (await failure(src.aggregate([{ $merge: { into: 'merge_fail', whenNotMatched: 'fail' } }]).toArray()))
        .code,
    ).toBe(13113);
    expect((await failure(src.aggregate([{ $merge: { into: 'merge_fail', on: 'k' } }]).toArray())).code).toBe(
      51183,
    );
    await dst.createIndex({ k: 1 }, { unique: true });
    await src
      .aggregate([
        { $project: { _id: 0, k: 1, seen: { $literal: true } } },
        { $merge: { into: 'merge_fail', on: 'k' } },
      ])
      .toArray();
    expect(await dst.findOne({ k: 'a' })).toEqual({ _id: 1, k: 'a', seen: true });
    expect(await dst.countDocuments({ k: 'b', seen: true })).toBe(1);
  });
});
