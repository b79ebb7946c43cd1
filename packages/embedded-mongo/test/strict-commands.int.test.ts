// What MongoDB 7.0 refuses is refused here too. Unknown fields in a write command
// or in one of its statements are 40415 and nothing is written; a write concern the one-member set
// cannot satisfy is applied on the primary and answered with a writeConcernError, as MongoDB does.
import { failure, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

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

// The other commands whose MongoDB 7.0 IDL is strict: an unknown field is 40415 before the command
// does anything; the same command with only its own (and the generic) fields runs.
describe('unknown fields of the other strict commands (40415, nothing done)', () => {
  async function refused(cmd: Record<string, unknown>, message: string, db = t.db): Promise<void> {
    const err = await failure(db.command(cmd));
    expect(err.code).toBe(40415);
    expect(err.message).toBe(message);
  }

  async function collectionNames(db = t.db): Promise<string[]> {
    return (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
  }

  async function indexNames(coll: string): Promise<string[]> {
    return (await t.db.collection(coll).indexes()).map((i) => i.name as string).sort();
  }

  it('create: no collection is created; its own options are accepted', async () => {
    await refused({ create: 'sc_create', foo: 1 }, "BSON field 'create.foo' is an unknown field.");
    await refused(
      { create: 'sc_create', validationLevel: 'strict', validationActon: 'error' },
      "BSON field 'create.validationActon' is an unknown field.",
    );
    expect(await collectionNames()).not.toContain('sc_create');
    await t.db.command({
      create: 'sc_create',
      validator: { a: { $exists: true } },
      validationLevel: 'strict',
      validationAction: 'error',
      comment: 'c',
      writeConcern: { w: 'majority' },
    });
    expect(await collectionNames()).toContain('sc_create');
  });

  it('drop and dropDatabase: the collection and the database stay', async () => {
    await t.db.collection('sc_drop').insertOne({ _id: 1 } as never);
    await refused({ drop: 'sc_drop', force: true }, "BSON field 'drop.force' is an unknown field.");
    expect(await collectionNames()).toContain('sc_drop');
    await t.db.command({ drop: 'sc_drop', comment: 'c' });
    expect(await collectionNames()).not.toContain('sc_drop');

    const other = t.client.db(`${t.db.databaseName}_dd`);
    await other.collection('kept').insertOne({ _id: 1 } as never);
    await refused(
      { dropDatabase: 1, force: true },
      "BSON field 'dropDatabase.force' is an unknown field.",
      other,
    );
    expect(await other.collection('kept').countDocuments()).toBe(1);
    await other.command({ dropDatabase: 1, writeConcern: { w: 1 } });
    expect(await collectionNames(other)).toEqual([]);
  });

  it('listCollections, listDatabases and listIndexes', async () => {
    await t.db.collection('sc_list').createIndex({ a: 1 });
    await refused(
      { listCollections: 1, query: { name: 'sc_list' } },
      "BSON field 'listCollections.query' is an unknown field.",
    );
    const listed = await t.db.command({
      listCollections: 1,
      filter: { name: 'sc_list' },
      nameOnly: true,
      authorizedCollections: true,
      cursor: {},
      comment: 'c',
    });
    expect(listed.cursor.firstBatch).toEqual([{ name: 'sc_list', type: 'collection' }]);

    const admin = t.client.db('admin');
    await refused(
      { listDatabases: 1, names: true },
      "BSON field 'listDatabases.names' is an unknown field.",
      admin,
    );
    const dbs = await admin.command({
      listDatabases: 1,
      nameOnly: true,
      filter: { name: t.db.databaseName },
    });
    expect(dbs.databases).toEqual([{ name: t.db.databaseName }]);

    await refused(
      { listIndexes: 'sc_list', filter: {} },
      "BSON field 'listIndexes.filter' is an unknown field.",
    );
    const indexes = await t.db.command({ listIndexes: 'sc_list', cursor: { batchSize: 10 } });
    expect(indexes.cursor.firstBatch.map((i: { name: string }) => i.name)).toEqual(['_id_', 'a_1']);
  });

  it('renameCollection: nothing is renamed', async () => {
    await t.db.collection('sc_from').insertOne({ _id: 1 } as never);
    const admin = t.client.db('admin');
    const from = `${t.db.databaseName}.sc_from`;
    const to = `${t.db.databaseName}.sc_to`;
    await refused(
      { renameCollection: from, to, dropTraget: true },
      "BSON field 'renameCollection.dropTraget' is an unknown field.",
      admin,
    );
    expect(await collectionNames()).toContain('sc_from');
    expect(await collectionNames()).not.toContain('sc_to');
    await admin.command({ renameCollection: from, to, dropTarget: true, stayTemp: false });
    expect(await collectionNames()).toContain('sc_to');
    expect(await collectionNames()).not.toContain('sc_from');
  });

  it('createIndexes: no index and no collection; its own fields are accepted', async () => {
    await refused(
      { createIndexes: 'sc_idx', indexes: [{ key: { a: 1 }, name: 'a_1' }], background: true },
      "BSON field 'createIndexes.background' is an unknown field.",
    );
    expect(await collectionNames()).not.toContain('sc_idx');
    await t.db.command({
      createIndexes: 'sc_idx',
      indexes: [{ key: { a: 1 }, name: 'a_1', background: true }],
      ignoreUnknownIndexOptions: false,
      comment: 'c',
    });
    expect(await indexNames('sc_idx')).toEqual(['_id_', 'a_1']);
  });

  it('an unknown index option is 197 for the whole command; ignoreUnknownIndexOptions drops it', async () => {
    await t.db.collection('sc_spec').insertOne({ _id: 1 } as never);
    const err = await failure(
      t.db.command({
        createIndexes: 'sc_spec',
        indexes: [
          { key: { b: 1 }, name: 'b_1' },
          { key: { t: 1 }, name: 't_1', expireAfterSecond: 60 },
        ],
      }),
    );
    expect(err.code).toBe(197);
    expect(err.codeName).toBe('InvalidIndexSpecificationOption');
    expect(err.message).toMatch(/^The field 'expireAfterSecond' is not valid for an index specification\./);
    // The good spec before the bad one was not built either.
    expect(await indexNames('sc_spec')).toEqual(['_id_']);
    await t.db.command({
      createIndexes: 'sc_spec',
      indexes: [{ key: { t: 1 }, name: 't_1', expireAfterSecond: 60 }],
      ignoreUnknownIndexOptions: true,
    });
    const t1 = (await t.db.collection('sc_spec').indexes()).find((i) => i.name === 't_1');
    expect(t1).toBeDefined();
    expect(t1).not.toHaveProperty('expireAfterSecond');
  });

  it('dropIndexes (and its alias deleteIndexes, reported as dropIndexes): the index stays', async () => {
    await t.db.collection('sc_dropidx').createIndex({ a: 1 });
    await refused(
      { dropIndexes: 'sc_dropidx', index: 'a_1', force: true },
      "BSON field 'dropIndexes.force' is an unknown field.",
    );
    await refused(
      { deleteIndexes: 'sc_dropidx', index: 'a_1', force: true },
      "BSON field 'dropIndexes.force' is an unknown field.",
    );
    expect(await indexNames('sc_dropidx')).toEqual(['_id_', 'a_1']);
    await t.db.command({ dropIndexes: 'sc_dropidx', index: 'a_1', comment: 'c' });
    expect(await indexNames('sc_dropidx')).toEqual(['_id_']);
  });

  it('collMod: the validator is not changed; a known option without its effect stays refused', async () => {
    await t.db.createCollection('sc_mod', { validator: { a: { $exists: true } } });
    await refused(
      { collMod: 'sc_mod', validator: { b: { $exists: true } }, validatorLevel: 'off' },
      "BSON field 'collMod.validatorLevel' is an unknown field.",
    );
    const options = async (): Promise<unknown> =>
      (await t.db.listCollections({ name: 'sc_mod' }, { nameOnly: false }).toArray())[0].options;
    expect(await options()).toEqual({ validator: { a: { $exists: true } } });
    // A field collMod defines but this server does not implement: refused, not 40415.
    const capped = await failure(t.db.command({ collMod: 'sc_mod', cappedSize: 1024 }));
    expect(capped.code).not.toBe(40415);
    await t.db.command({ collMod: 'sc_mod', validationLevel: 'moderate', validationAction: 'warn' });
    expect(await options()).toMatchObject({ validationLevel: 'moderate', validationAction: 'warn' });
  });

  it('getMore and killCursors: the cursor is neither advanced nor killed', async () => {
    const c = t.db.collection('sc_cursor');
    await c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }] as never[]);
    const first = await t.db.command({ find: 'sc_cursor', sort: { _id: 1 }, batchSize: 1 });
    const id = first.cursor.id;
    await refused(
      { getMore: id, collection: 'sc_cursor', batchSize: 1, singleBatch: true },
      "BSON field 'getMore.singleBatch' is an unknown field.",
    );
    await refused(
      { killCursors: 'sc_cursor', cursors: [id], all: true },
      "BSON field 'killCursors.all' is an unknown field.",
    );
    const next = await t.db.command({ getMore: id, collection: 'sc_cursor', batchSize: 1, comment: 'c' });
    expect(next.cursor.nextBatch).toEqual([{ _id: 2 }]);
    const killed = await t.db.command({ killCursors: 'sc_cursor', cursors: [id] });
    expect(killed.cursorsKilled).toHaveLength(1);
  });

  it('commitTransaction, abortTransaction and endSessions leave the transaction open', async () => {
    const c = t.db.collection('sc_txn');
    await c.insertOne({ _id: 0 } as never);
    const admin = t.client.db('admin');
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ _id: 1 } as never, { session });
      const commit = await failure(admin.command({ commitTransaction: 1, force: true }, { session }));
      expect(commit.code).toBe(40415);
      expect(commit.message).toBe("BSON field 'commitTransaction.force' is an unknown field.");
      const abort = await failure(admin.command({ abortTransaction: 1, force: true }, { session }));
      expect(abort.code).toBe(40415);
      expect(abort.message).toBe("BSON field 'abortTransaction.force' is an unknown field.");
      await refused(
        { endSessions: [session.id], force: true },
        "BSON field 'endSessions.force' is an unknown field.",
        admin,
      );
      // Still uncommitted, and still committable.
      expect(await c.countDocuments()).toBe(1);
      await session.commitTransaction();
      expect(await c.countDocuments()).toBe(2);
    } finally {
      await session.endSession();
    }
  });

  it('explain: its own fields and those of the explained find', async () => {
    await t.db.collection('sc_explain').insertOne({ _id: 1 } as never);
    await refused(
      { explain: { find: 'sc_explain', filter: {} }, verbosity: 'queryPlanner', mode: 'x' },
      "BSON field 'explain.mode' is an unknown field.",
    );
    await refused(
      { explain: { find: 'sc_explain', query: {} }, verbosity: 'queryPlanner' },
      "BSON field 'find.query' is an unknown field.",
    );
    const plan = await t.db
      .collection('sc_explain')
      .find({ _id: 1 } as never)
      .explain('queryPlanner');
    expect(plan.queryPlanner).toBeDefined();
  });

  it('search index commands: 40415 before the Atlas-only refusal', async () => {
    await refused(
      { createSearchIndexes: 'sc_search', indexes: [], foo: 1 },
      "BSON field 'createSearchIndexes.foo' is an unknown field.",
    );
    const atlas = await failure(
      t.db.command({ createSearchIndexes: 'sc_search', indexes: [{ definition: { mappings: {} } }] }),
    );
    expect(atlas.code).toBe(115);
  });

  it('commands whose IDL is not strict (or that have none) still accept any field', async () => {
    const admin = t.client.db('admin');
    expect((await admin.command({ hello: 1, anything: true })).ok).toBe(1);
    expect((await admin.command({ serverStatus: 1, anything: 0 })).ok).toBe(1);
  });
});
