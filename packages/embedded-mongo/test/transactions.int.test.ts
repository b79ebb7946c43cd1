import mongoose from 'mongoose';
import { Long, MongoClient, MongoServerError } from 'mongodb';
import { startEmbeddedMongo } from '../src';
import { usingRealMongo, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

describe('transactions (replica-set mode)', () => {
  it('hides a transaction’s writes from others until it commits', async () => {
    const coll = t.db.collection('hidden');
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await coll.insertOne({ _id: 1, v: 'tx' } as never, { session });
      expect(await coll.findOne({ _id: 1 } as never, { session })).toMatchObject({ v: 'tx' });
      expect(await coll.findOne({ _id: 1 } as never)).toBeNull();
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await coll.findOne({ _id: 1 } as never)).toMatchObject({ v: 'tx' });
  });

  it('reads from a snapshot taken when the transaction started', async () => {
    const coll = t.db.collection('snapshot');
    await coll.insertMany([
      { _id: 1, v: 'old' },
      { _id: 2, v: 'kept' },
    ] as never[]);
    const session = t.client.startSession();
    try {
      session.startTransaction();
      expect(await coll.findOne({ _id: 1 } as never, { session })).toEqual({ _id: 1, v: 'old' });
      await coll.updateOne({ _id: 1 } as never, { $set: { v: 'new' } });
      await coll.deleteOne({ _id: 2 } as never);
      expect(await coll.findOne({ _id: 1 } as never, { session })).toEqual({ _id: 1, v: 'old' });
      expect(await coll.countDocuments({ v: 'kept' }, { session })).toBe(1);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, v: 'new' });
  });

  it('discards everything on abort', async () => {
    const coll = t.db.collection('aborted');
    await coll.insertOne({ _id: 1, n: 0 } as never);
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await coll.updateOne({ _id: 1 } as never, { $inc: { n: 1 } }, { session });
      await coll.insertOne({ _id: 2 } as never, { session });
      await coll.deleteOne({ _id: 1 } as never, { session });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await coll.find().toArray()).toEqual([{ _id: 1, n: 0 }]);
  });

  it('answers 112 WriteConflict with TransientTransactionError when two transactions write one document', async () => {
    const coll = t.db.collection('conflict');
    await coll.insertOne({ _id: 1, n: 0 } as never);
    const a = t.client.startSession();
    const b = t.client.startSession();
    try {
      a.startTransaction();
      b.startTransaction();
      await coll.updateOne({ _id: 1 } as never, { $inc: { n: 1 } }, { session: a });
      const err = (await coll
        .updateOne({ _id: 1 } as never, { $inc: { n: 10 } }, { session: b })
        .catch((e: unknown) => e)) as MongoServerError;
      expect(err.code).toBe(112);
      expect(err.hasErrorLabel('TransientTransactionError')).toBe(true);
      await b.abortTransaction().catch(() => undefined);
      await a.commitTransaction();
    } finally {
      await a.endSession();
      await b.endSession();
    }
    expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 1 });
  });

  it('retries with withTransaction until concurrent increments all land', async () => {
    const coll = t.db.collection('retry');
    await coll.insertOne({ _id: 1, n: 0 } as never);
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        const session = t.client.startSession();
        try {
          await session.withTransaction(async () => {
            const doc = await coll.findOne({ _id: 1 } as never, { session });
            await coll.updateOne({ _id: 1 } as never, { $set: { n: (doc!.n as number) + 1 } }, { session });
          });
        } finally {
          await session.endSession();
        }
      }),
    );
    expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 5 });
  });

  it('commits mongoose connection.transaction() atomically and rolls back when it throws', async () => {
    const conn = await mongoose.createConnection(t.uri, { dbName: t.db.databaseName }).asPromise();
    try {
      const Account = conn.model(
        'Account',
        new mongoose.Schema({ owner: { type: String, unique: true }, balance: Number }),
      );
      const Outbox = conn.model('Outbox', new mongoose.Schema({ type: String }));
      await Account.init();
      await Account.create({ owner: 'ann', balance: 100 });
      await conn.transaction(async (session) => {
        await Account.updateOne({ owner: 'ann' }, { $inc: { balance: -30 } }, { session });
        await Outbox.create([{ type: 'debited' }], { session });
      });
      expect((await Account.findOne({ owner: 'ann' }).lean())!.balance).toBe(70);
      expect(await Outbox.countDocuments()).toBe(1);
      await expect(
        conn.transaction(async (session) => {
          await Account.updateOne({ owner: 'ann' }, { $inc: { balance: -30 } }, { session });
          await Outbox.create([{ type: 'debited' }], { session });
          throw new Error('payment refused');
        }),
      ).rejects.toThrow('payment refused');
      expect((await Account.findOne({ owner: 'ann' }).lean())!.balance).toBe(70);
      expect(await Outbox.countDocuments()).toBe(1);
      await expect(
        conn.transaction(async (session) => {
          await Outbox.create([{ type: 'x' }], { session });
          await Account.create([{ owner: 'ann', balance: 1 }], { session });
        }),
      ).rejects.toMatchObject({ code: 11000 });
      expect(await Outbox.countDocuments()).toBe(1);
    } finally {
      await conn.close();
    }
  });
});

describe('retryable writes', () => {
  it('applies a retried write once and answers the retry with the first reply', async () => {
    const session = t.client.startSession();
    try {
      const cmd = { insert: 'retried', documents: [{ n: 1 }], txnNumber: Long.fromNumber(7) };
      const first = await t.db.command(cmd, { session });
      const again = await t.db.command(cmd, { session });
      expect(first.n).toBe(1);
      expect(again.n).toBe(1);
      expect(await t.db.collection('retried').countDocuments()).toBe(1);
    } finally {
      await session.endSession();
    }
  });
});

(usingRealMongo ? describe.skip : describe)('standalone mode', () => {
  it('refuses transactions the way a standalone mongod does', async () => {
    const server = await startEmbeddedMongo({ port: 0 });
    const client = await MongoClient.connect(server.uri);
    try {
      const coll = client.db('standalone').collection('c');
      await coll.insertOne({ a: 1 });
      const hello = await client.db('admin').command({ hello: 1 });
      expect(hello.setName).toBeUndefined();
      const session = client.startSession();
      session.startTransaction();
      await expect(coll.insertOne({ a: 2 }, { session })).rejects.toThrow(/retryable writes|[Tt]ransaction/);
      await session.endSession().catch(() => undefined);
      const raw = {
        insert: 'c',
        documents: [{ a: 3 }],
        txnNumber: Long.fromNumber(1),
        autocommit: false,
        startTransaction: true,
      };
      await expect(client.db('standalone').command(raw)).rejects.toMatchObject({
        code: 20,
        codeName: 'IllegalOperation',
      });
      expect(await coll.countDocuments()).toBe(1);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
