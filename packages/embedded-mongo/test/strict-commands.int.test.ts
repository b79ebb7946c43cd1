// Issue 25, item 5: what MongoDB 7.0 refuses is refused here too. Unknown fields in a write command
// or in one of its statements are 40415 and nothing is written; a write concern the one-member set
// cannot satisfy is applied on the primary and answered with a writeConcernError, as MongoDB does.
import { TestDatabase, openTestDatabase, failure } from './support';

let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase({ replSet: 'rs0' });
});

afterAll(async () => {
  await t.close();
});

describe('unknown fields (MongoDB 7.0 IDL: 40415)', () => {
  it('`sort` in an update statement (8.0 only) is refused and nothing changes', async () => {
    const c = t.db.collection('sort_update');
    await c.insertMany([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ] as never[]);
    const err = await failure(c.updateOne({}, { $set: { n: 1 } }, { sort: { _id: -1 } }));
    expect(err.code).toBe(40415);
    expect(err.message).toBe("BSON field 'update.updates.sort' is an unknown field.");
    const err2 = await failure(c.replaceOne({}, { n: 5 }, { sort: { _id: -1 } }));
    expect(err2.code).toBe(40415);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
  });

  it('one bad statement in a bulk update refuses the whole command, the good statements included', async () => {
    const c = t.db.collection('sort_bulk');
    await c.insertOne({ _id: 1, n: 0 } as never);
    const err = await failure(
      c.bulkWrite([
        { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 1 } } } },
        { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 1 } }, sort: { _id: 1 } } },
      ] as never),
    );
    expect(err.code).toBe(40415);
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 0 });
  });

  it('unknown command fields on insert, update, delete and findAndModify are 40415', async () => {
    const c = t.db.collection('unknown_fields');
    await c.insertOne({ _id: 1, n: 0 } as never);
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { insert: 'unknown_fields', documents: [{ _id: 2 }], foo: 1 },
        "BSON field 'insert.foo' is an unknown field.",
      ],
      [
        { update: 'unknown_fields', updates: [{ q: { _id: 1 }, u: { $set: { n: 1 } } }], bar: true },
        "BSON field 'update.bar' is an unknown field.",
      ],
      [
        { delete: 'unknown_fields', deletes: [{ q: { _id: 1 }, limit: 1, justOne: true }] },
        "BSON field 'delete.deletes.justOne' is an unknown field.",
      ],
      [
        {
          findAndModify: 'unknown_fields',
          query: { _id: 1 },
          update: { $set: { n: 1 } },
          returnNewDocument: true,
        },
        "BSON field 'findAndModify.returnNewDocument' is an unknown field.",
      ],
    ];
    for (const [cmd, message] of cases) {
      const err = await failure(t.db.command(cmd));
      expect(err.code).toBe(40415);
      expect(err.message).toBe(message);
    }
    expect(await c.find().toArray()).toEqual([{ _id: 1, n: 0 }]);
  });

  it('still accepts what 7.0 defines (sort on findAndModify, hint, collation, comment, let, bypassDocumentValidation)', async () => {
    const c = t.db.collection('known_fields');
    await c.insertMany([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ] as never[]);
    const r = await c.findOneAndUpdate(
      {},
      { $set: { n: 1 } },
      { sort: { _id: -1 }, returnDocument: 'after' },
    );
    expect(r).toEqual({ _id: 2, n: 1 });
    await c.updateOne(
      { _id: 1 } as never,
      { $set: { n: 2 } },
      { hint: { _id: 1 }, comment: 'x', bypassDocumentValidation: true },
    );
    await c.deleteOne({ _id: 2 } as never, { hint: { _id: 1 }, comment: 'x' });
    await c.insertOne({ _id: 3 } as never, { bypassDocumentValidation: true, comment: 'x' });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, n: 2 }, { _id: 3 }]);
  });
});

describe('unknown fields of read commands (40415) and find options without their effect', () => {
  it('find, aggregate, count and distinct refuse a field they do not define', async () => {
    await t.db.collection('reads').insertOne({ a: 1 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ find: 'reads', filter: {}, sorting: { a: 1 } }, "BSON field 'find.sorting' is an unknown field."],
      [
        { aggregate: 'reads', pipeline: [], cursor: {}, foo: 1 },
        "BSON field 'aggregate.foo' is an unknown field.",
      ],
      [{ count: 'reads', filter: {} }, "BSON field 'count.filter' is an unknown field."],
      [{ distinct: 'reads', key: 'a', filter: {} }, "BSON field 'distinct.filter' is an unknown field."],
    ];
    for (const [cmd, message] of cases) {
      const err = await failure(t.db.command(cmd));
      expect(err.code).toBe(40415);
      expect(err.message).toBe(message);
    }
    // What the driver and mongoose send is accepted.
    const c = t.db.collection('reads');
    await c
      .find(
        {},
        { hint: { _id: 1 }, comment: 'c', maxTimeMS: 1000, allowDiskUse: true, noCursorTimeout: false },
      )
      .toArray();
    await c
      .aggregate([{ $match: {} }], { comment: 'c', maxTimeMS: 1000, allowDiskUse: true, hint: { _id: 1 } })
      .toArray();
    await c.countDocuments({}, { comment: 'c' });
    await c.estimatedDocumentCount({ comment: 'c' });
    await c.distinct('a', {}, { comment: 'c' });
  });

  it('tailable on a normal collection is 2, min/max without hint 51173, returnKey/showRecordId 115', async () => {
    const c = t.db.collection('reads');
    expect((await failure(t.db.command({ find: 'reads', tailable: true }))).code).toBe(2);
    expect((await failure(t.db.command({ find: 'reads', min: { a: 0 } }))).code).toBe(51173);
    expect((await failure(c.find({}, { returnKey: true }).toArray())).code).toBe(115);
    expect((await failure(c.find({}, { showRecordId: true }).toArray())).code).toBe(115);
  });
});

describe('write concerns a one-member replica set cannot satisfy', () => {
  it('w: 10 applies the write and answers writeConcernError 100 UnsatisfiableWriteConcern', async () => {
    const c = t.db.collection('wc_ten');
    const err = await failure(c.insertOne({ _id: 1 } as never, { writeConcern: { w: 10 } }));
    expect(err.code).toBe(100);
    expect(err.message).toBe('Not enough data-bearing nodes');
    // MongoDB applied it on the primary before waiting for the other (missing) members.
    expect(await c.find().toArray()).toEqual([{ _id: 1 }]);
    const upd = await failure(
      t.db.command({
        update: 'wc_ten',
        updates: [{ q: { _id: 1 }, u: { $set: { a: 1 } } }],
        writeConcern: { w: 10 },
      }),
    );
    // The reply is ok: 1 with the update's counts; the driver raises the writeConcernError.
    const reply = (upd as unknown as { result: Record<string, unknown> }).result;
    expect(reply).toMatchObject({ ok: 1, n: 1, nModified: 1 });
    expect(reply.writeConcernError).toMatchObject({ code: 100, codeName: 'UnsatisfiableWriteConcern' });
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 1 }]);
  });

  it('an unknown tag is writeConcernError 79 UnknownReplWriteConcern; w: "majority" and w: 1 are fine', async () => {
    const err = await failure(
      t.db.command({ insert: 'wc_tag', documents: [{ _id: 1 }], writeConcern: { w: 'eastCoast' } }),
    );
    expect(err.code).toBe(79);
    expect((err as unknown as { result: Record<string, unknown> }).result.writeConcernError).toMatchObject({
      code: 79,
      codeName: 'UnknownReplWriteConcern',
    });
    const ok = await t.db.command({
      insert: 'wc_tag',
      documents: [{ _id: 2 }],
      writeConcern: { w: 'majority', j: true },
    });
    expect(ok.writeConcernError).toBeUndefined();
    const one = await t.db.command({ insert: 'wc_tag', documents: [{ _id: 3 }], writeConcern: { w: 1 } });
    expect(one.writeConcernError).toBeUndefined();
    expect(await t.db.collection('wc_tag').countDocuments()).toBe(3);
  });

  it('a malformed w is refused before anything is written', async () => {
    const err = await failure(
      t.db.command({ insert: 'wc_bad', documents: [{ _id: 1 }], writeConcern: { w: -1 } }),
    );
    expect(err.code).toBe(9);
    const err2 = await failure(
      t.db.command({ insert: 'wc_bad', documents: [{ _id: 1 }], writeConcern: { w: 51 } }),
    );
    expect(err2.code).toBe(9);
    expect(await t.db.collection('wc_bad').countDocuments()).toBe(0);
  });

  it('commitTransaction with w: 10 commits and reports the writeConcernError', async () => {
    const c = t.db.collection('wc_commit');
    await c.insertOne({ _id: 0 } as never);
    const session = t.client.startSession();
    try {
      session.startTransaction({ writeConcern: { w: 10 } });
      await c.insertOne({ _id: 1 } as never, { session });
      const err = await failure(session.commitTransaction());
      expect(err.code).toBe(100);
    } finally {
      await session.endSession();
    }
    expect(await c.countDocuments()).toBe(2);
  });
});
