// Update pipelines keep the document's _id, $-prefixed names inside _id are refused, a
// database-level aggregate needs a stage that makes documents, and $out / $merge refuse
// readConcern linearizable: each as MongoDB 7.0 answers.
import { failure, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

describe('update pipelines and _id', () => {
  it('a new root without an _id keeps the document’s _id', async () => {
    const coll = t.db.collection('newroot');
    await coll.insertOne({ _id: 7, t: { a: 1, b: 2 }, old: true } as never);
    const r = await coll.updateOne({ _id: 7 } as never, [{ $replaceRoot: { newRoot: '$t' } }]);
    expect(r.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 7 } as never)).toEqual({ _id: 7, a: 1, b: 2 });
    await coll.updateOne({ _id: 7 } as never, [{ $unset: '_id' }, { $set: { c: 3 } }]);
    expect(await coll.findOne({ _id: 7 } as never)).toEqual({ _id: 7, a: 1, b: 2, c: 3 });
  });

  it('a new root with another _id is still refused (66), the document unchanged', async () => {
    const coll = t.db.collection('newroot-id');
    await coll.insertOne({ _id: 1, t: { _id: 2, a: 1 } } as never);
    const err = await failure(coll.updateOne({ _id: 1 } as never, [{ $replaceRoot: { newRoot: '$t' } }]));
    expect(err.code).toBe(66);
    expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, t: { _id: 2, a: 1 } });
  });

  it('a $-prefixed field name inside _id is refused (52) on insert and upsert, nothing stored', async () => {
    const coll = t.db.collection('dollar-id');
    const inserted = await failure(coll.insertOne({ _id: { $a: 1 } } as never));
    expect(inserted.code).toBe(52);
    expect(inserted.message).toBe('$a is not valid for storage.');
    const nested = await failure(coll.insertOne({ _id: { a: [{ b: { $c: 1 } }] } } as never));
    expect(nested.code).toBe(52);
    const upserted = await failure(
      coll.replaceOne({ x: 1 }, { _id: { k: { $x: 1 } }, v: 1 } as never, { upsert: true }),
    );
    expect(upserted.code).toBe(52);
    expect(upserted.message).toBe(
      "_id fields may not contain '$'-prefixed fields: $x is not valid for storage.",
    );
    expect(await coll.countDocuments()).toBe(0);
    // A DBRef is the exception, and a $ inside a value is no field name.
    await coll.insertOne({ _id: { $ref: 'c', $id: 1, $db: 'd' } } as never);
    await coll.insertOne({ _id: { a: '$x' } } as never);
    expect(await coll.countDocuments()).toBe(2);
  });
});

describe('database-level aggregate and $out', () => {
  it('aggregate: 1 needs a stage that makes documents; $out alone is 73 and the target is left alone', async () => {
    const target = t.db.collection('kept');
    await target.insertOne({ _id: 1 } as never);
    const err = await failure(t.db.aggregate([{ $out: 'kept' }]).toArray());
    expect(err.code).toBe(73);
    expect(err.message).toBe("{aggregate: 1} is not valid for '$out'; a collection is required.");
    const matchFirst = await failure(
      t.db.aggregate([{ $match: {} }, { $merge: { into: 'kept' } }]).toArray(),
    );
    expect(matchFirst.code).toBe(73);
    expect(await target.find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('aggregate: 1 with $documents then $out writes those documents', async () => {
    await t.db
      .aggregate([
        {
          $documents: [
            { _id: 1, a: 1 },
            { _id: 2, a: 2 },
          ],
        },
        { $out: 'made' },
      ])
      .toArray();
    expect(await t.db.collection('made').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
    ]);
  });

  it('$out and $merge refuse readConcern linearizable (72), writing nothing', async () => {
    const source = t.db.collection('linear-src');
    await source.insertOne({ _id: 1 } as never);
    for (const stage of [{ $out: 'linear-out' }, { $merge: { into: 'linear-out' } }]) {
      const err = await failure(
        source.aggregate([stage], { readConcern: { level: 'linearizable' } }).toArray(),
      );
      expect(err.code).toBe(72);
    }
    expect(await t.db.collection('linear-out').countDocuments()).toBe(0);
    // A plain read at linearizable is fine.
    expect(await source.aggregate([], { readConcern: { level: 'linearizable' } }).toArray()).toEqual([
      { _id: 1 },
    ]);
  });
});
