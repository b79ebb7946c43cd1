// Every write path inside a transaction keeps MongoDB's duplicate-key rules.
// A write that would duplicate an `_id` or a unique key fails with 11000 (E11000), MongoDB then
// aborts the transaction, and nothing of it is ever committed.
import { ClientSession, Collection, MongoServerError } from 'mongodb';
import { useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

/** Runs `body` in a transaction expecting 11000, then shows the transaction is gone (aborted). */
async function expectDuplicateInTxn(
  body: (session: ClientSession) => Promise<unknown>,
): Promise<MongoServerError> {
  const session = t.client.startSession();
  try {
    session.startTransaction();
    const err = (await body(session).then(
      () => undefined,
      (e: unknown) => e,
    )) as MongoServerError | undefined;
    expect(err).toBeDefined();
    expect(err!.code).toBe(11000);
    expect(err!.message).toMatch(/^E11000 duplicate key error/);
    // MongoDB aborts the transaction on the write error: commit answers 251 NoSuchTransaction.
    const commit = (await session.commitTransaction().catch((e: unknown) => e)) as MongoServerError;
    expect(commit).toBeInstanceOf(MongoServerError);
    expect(commit.code).toBe(251);
    return err!;
  } finally {
    await session.endSession();
  }
}

function coll(name: string): Collection {
  return t.db.collection(name);
}

describe('duplicate _id inside a transaction', () => {
  it('insertMany([{_id:1},{_id:1}]) fails with E11000 and commits nothing', async () => {
    const c = coll('dup_insert_many');
    await c.insertOne({ _id: 0 } as never); // the collection exists before the transaction
    const err = await expectDuplicateInTxn((session) =>
      c.insertMany(
        [
          { _id: 1, v: 'a' },
          { _id: 1, v: 'b' },
        ] as never[],
        { session },
      ),
    );
    expect(err.message).toMatch(/dup key: \{ _id: 1 \}/);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 0 }]);
  });

  it('inserting an _id that is already stored fails and leaves the stored document alone', async () => {
    const c = coll('dup_insert_stored');
    await c.insertOne({ _id: 1, v: 'stored' } as never);
    await expectDuplicateInTxn((session) => c.insertOne({ _id: 1, v: 'replacement' } as never, { session }));
    expect(await c.find().toArray()).toEqual([{ _id: 1, v: 'stored' }]);
  });

  it('an insert after an update of the same _id in the transaction fails', async () => {
    const c = coll('dup_after_update');
    await c.insertOne({ _id: 1, n: 0 } as never);
    await expectDuplicateInTxn(async (session) => {
      await c.updateOne({ _id: 1 } as never, { $inc: { n: 1 } }, { session });
      await c.insertOne({ _id: 1, n: 99 } as never, { session });
    });
    expect(await c.find().toArray()).toEqual([{ _id: 1, n: 0 }]);
  });

  it('deleting then re-inserting an _id in one transaction is allowed', async () => {
    const c = coll('delete_reinsert');
    await c.insertOne({ _id: 1, v: 'old' } as never);
    const session = t.client.startSession();
    try {
      await session.withTransaction(async () => {
        await c.deleteOne({ _id: 1 } as never, { session });
        await c.insertOne({ _id: 1, v: 'new' } as never, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(await c.find().toArray()).toEqual([{ _id: 1, v: 'new' }]);
  });

  // Each upsert's filter builds { _id: 1, x: 2 }, whose _id the collection already has.
  it.each([
    [
      'an upsert that builds an existing _id fails with E11000 (update command)',
      'dup_upsert',
      (c: Collection, session: ClientSession) =>
        c.updateOne({ _id: 1, x: 2 } as never, { $set: { y: 1 } }, { upsert: true, session }),
    ],
    [
      'an upserting replaceOne that builds an existing _id fails with E11000',
      'dup_replace_upsert',
      (c: Collection, session: ClientSession) =>
        c.replaceOne({ _id: 1, x: 2 } as never, { x: 3 }, { upsert: true, session }),
    ],
    [
      'findOneAndUpdate with upsert that builds an existing _id fails with E11000',
      'dup_fam',
      (c: Collection, session: ClientSession) =>
        c.findOneAndUpdate({ _id: 1, x: 2 } as never, { $set: { y: 1 } }, { upsert: true, session }),
    ],
  ])('%s', async (_name, name, upsert) => {
    const c = coll(name);
    await c.insertOne({ _id: 1, x: 1 } as never);
    await expectDuplicateInTxn((session) => upsert(c, session));
    expect(await c.find().toArray()).toEqual([{ _id: 1, x: 1 }]);
  });

  it('a bulkWrite insertOne + upsert on an _id inserted earlier in the transaction fails', async () => {
    const c = coll('dup_bulk');
    await c.insertOne({ _id: 0 } as never);
    const err = await expectDuplicateInTxn((session) =>
      c.bulkWrite(
        [
          { insertOne: { document: { _id: 1, v: 'first' } } },
          { updateOne: { filter: { _id: 1, v: 'other' }, update: { $set: { w: 1 } }, upsert: true } },
        ] as never,
        { session },
      ),
    );
    expect((err as unknown as { writeErrors: Array<{ index: number }> }).writeErrors[0].index).toBe(1);
    expect(await c.find().toArray()).toEqual([{ _id: 0 }]);
  });

  it('an unordered bulk insert in a transaction reports the duplicate and commits nothing', async () => {
    const c = coll('dup_unordered');
    await c.insertOne({ _id: 0 } as never);
    await expectDuplicateInTxn((session) =>
      c.insertMany([{ _id: 1 }, { _id: 0 }, { _id: 2 }] as never[], { session, ordered: false }),
    );
    expect(await c.find().toArray()).toEqual([{ _id: 0 }]);
  });
});

describe('unique secondary indexes inside a transaction', () => {
  it('a key held by a stored document fails with E11000 and keyValue', async () => {
    const c = coll('uniq_stored');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ _id: 1, email: 'a@x' } as never);
    const err = await expectDuplicateInTxn((session) =>
      c.insertOne({ _id: 2, email: 'a@x' } as never, { session }),
    );
    expect((err as unknown as { keyValue: unknown }).keyValue).toEqual({ email: 'a@x' });
    expect(await c.countDocuments()).toBe(1);
  });

  it('two writes of the transaction itself with one key fail (insert, then update into it)', async () => {
    const c = coll('uniq_own');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ _id: 0 } as never);
    await expectDuplicateInTxn(async (session) => {
      await c.insertOne({ _id: 1, email: 'a@x' } as never, { session });
      await c.insertOne({ _id: 2, email: 'b@x' } as never, { session });
      await c.updateOne({ _id: 2 } as never, { $set: { email: 'a@x' } }, { session });
    });
    expect(await c.countDocuments()).toBe(1);
  });

  it('a key freed earlier in the transaction can be taken, and two documents can swap keys', async () => {
    const c = coll('uniq_swap');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1, email: 'a@x' },
      { _id: 2, email: 'b@x' },
    ] as never[]);
    const session = t.client.startSession();
    try {
      await session.withTransaction(async () => {
        await c.updateOne({ _id: 1 } as never, { $set: { email: 'tmp' } }, { session });
        await c.updateOne({ _id: 2 } as never, { $set: { email: 'a@x' } }, { session });
        await c.updateOne({ _id: 1 } as never, { $set: { email: 'b@x' } }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, email: 'b@x' },
      { _id: 2, email: 'a@x' },
    ]);
    // The indexes followed: the old keys are free and the new ones taken.
    await expect(c.insertOne({ _id: 3, email: 'a@x' } as never)).rejects.toMatchObject({ code: 11000 });
    await c.insertOne({ _id: 4, email: 'tmp' } as never);
  });

  it('replaceOne onto another document’s unique key fails and commits nothing', async () => {
    const c = coll('uniq_replace');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1, email: 'a@x' },
      { _id: 2, email: 'b@x' },
    ] as never[]);
    await expectDuplicateInTxn((session) => c.replaceOne({ _id: 2 } as never, { email: 'a@x' }, { session }));
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, email: 'a@x' },
      { _id: 2, email: 'b@x' },
    ]);
  });

  it('a key committed by another client after the transaction began is a WriteConflict, not a silent duplicate', async () => {
    const c = coll('uniq_race');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ _id: 0 } as never);
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await c.findOne({ _id: 0 } as never, { session }); // the snapshot is taken here
      await c.insertOne({ _id: 1, email: 'a@x' } as never);
      const err = (await c
        .insertOne({ _id: 2, email: 'a@x' } as never, { session })
        .catch((e: unknown) => e)) as MongoServerError;
      expect(err).toBeInstanceOf(MongoServerError);
      expect([112, 11000]).toContain(err.code);
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
    expect(await c.countDocuments({ email: 'a@x' })).toBe(1);
  });
});
