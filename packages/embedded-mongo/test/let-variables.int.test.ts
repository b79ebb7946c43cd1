// `let` variables (MongoDB 5.0+) on find, aggregate, update, delete,
// findAndModify and bulk writes, and `c` constants on an update statement; a variable nobody
// defined is MongoDB's 17276.
import { MongoServerError } from 'mongodb';
import { useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

async function seeded(name: string) {
  const c = t.db.collection(name);
  await c.insertMany([
    { _id: 1, a: 1 },
    { _id: 2, a: 2 },
    { _id: 3, a: 3 },
  ] as never[]);
  return c;
}

describe('let variables', () => {
  it('find and aggregate read them in $expr and expressions', async () => {
    const c = await seeded('let_read');
    expect(await c.find({ $expr: { $eq: ['$a', '$$target'] } }, { let: { target: 2 } }).toArray()).toEqual([
      { _id: 2, a: 2 },
    ]);
    expect(
      await c
        .aggregate(
          [
            { $match: { $expr: { $gt: ['$a', '$$min'] } } },
            { $project: { _id: 0, over: { $subtract: ['$a', '$$min'] } } },
          ],
          { let: { min: 1 } },
        )
        .toArray(),
    ).toEqual([{ over: 1 }, { over: 2 }]);
  });

  it('update (filter and pipeline), delete and findAndModify use them', async () => {
    const c = await seeded('let_write');
    const u = await c.updateMany({ $expr: { $gte: ['$a', '$$from'] } }, [{ $set: { b: '$$label' } }], {
      let: { from: 2, label: 'big' },
    });
    expect(u.modifiedCount).toBe(2);
    const f = await c.findOneAndUpdate({ $expr: { $eq: ['$a', '$$which'] } }, [{ $set: { b: '$$label' } }], {
      let: { which: 1, label: 'small' },
      returnDocument: 'after',
    });
    expect(f).toEqual({ _id: 1, a: 1, b: 'small' });
    const d = await c.deleteMany({ $expr: { $eq: ['$b', '$$gone'] } }, { let: { gone: 'big' } });
    expect(d.deletedCount).toBe(2);
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 1, b: 'small' }]);
  });

  it('bulkWrite passes let to its update and delete commands', async () => {
    const c = await seeded('let_bulk');
    const r = await c.bulkWrite(
      [
        { updateOne: { filter: { $expr: { $eq: ['$a', '$$x'] } }, update: [{ $set: { hit: true } }] } },
        { deleteOne: { filter: { $expr: { $eq: ['$a', '$$y'] } } } },
      ],
      { let: { x: 1, y: 3 } },
    );
    expect(r.modifiedCount).toBe(1);
    expect(r.deletedCount).toBe(1);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 1, hit: true },
      { _id: 2, a: 2 },
    ]);
  });

  it('an update statement’s c constants are variables too', async () => {
    const c = await seeded('let_c');
    await t.db.command({
      update: 'let_c',
      updates: [{ q: { _id: 1 }, u: [{ $set: { v: '$$k' } }], c: { k: 'const' } }],
    });
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, a: 1, v: 'const' });
  });

  it('an undefined variable is 17276', async () => {
    const c = await seeded('let_undefined');
    const err = (await c
      .find({ $expr: { $eq: ['$a', '$$nope'] } })
      .toArray()
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(17276);
    expect(err.message).toMatch(/Use of undefined variable: nope/);
  });
});
