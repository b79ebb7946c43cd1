// Collections and indexes created inside a transaction (MongoDB 4.4+) stay private
// to it until commit, and vanish with an abort.
import { ClientSession, MongoServerError } from 'mongodb';
import { failure, usingRealMongo, useTestDatabase } from './support';
import { startEmbeddedMongo } from '../src';
import { MongoClient } from 'mongodb';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const t = useTestDatabase({ replSet: 'rs0' });

/** What `write` is refused with inside a transaction, which is then aborted. */
async function refusedInTransaction(
  write: (session: ClientSession) => Promise<unknown>,
): Promise<MongoServerError> {
  const session = t.client.startSession();
  try {
    session.startTransaction();
    const err = await failure(write(session));
    await session.abortTransaction().catch(() => undefined);
    return err;
  } finally {
    await session.endSession();
  }
}

async function names(): Promise<string[]> {
  return (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
}

describe('collections created inside a transaction', () => {
  it('an insert that creates the collection is invisible to others until commit', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await t.db.collection('implicit').insertOne({ _id: 1 } as never, { session });
      expect(await names()).not.toContain('implicit');
      expect(await t.db.collection('implicit').find().toArray()).toEqual([]);
      expect(await t.db.collection('implicit').find({}, { session }).toArray()).toEqual([{ _id: 1 }]);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await names()).toContain('implicit');
    expect(await t.db.collection('implicit').find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('an explicit create is invisible until commit and gone after an abort', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await t.db.createCollection('explicit', { session });
      await t.db.collection('explicit').insertOne({ _id: 1 } as never, { session });
      expect(await names()).not.toContain('explicit');
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await names()).not.toContain('explicit');
    // and the name is free again, outside a transaction too
    await t.db.createCollection('explicit');
    expect(await t.db.collection('explicit').countDocuments()).toBe(0);
  });

  it('an insert that creates the collection leaves nothing behind when the transaction aborts', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await t.db.collection('implicit_aborted').insertOne({ _id: 1 } as never, { session });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await names()).not.toContain('implicit_aborted');
  });

  it('creating a collection that exists is 48 NamespaceExists', async () => {
    await t.db.createCollection('exists_already');
    const err = await refusedInTransaction((session) => t.db.createCollection('exists_already', { session }));
    expect(err.code).toBe(48);
  });

  it('a collection another client creates meanwhile makes the commit a retryable WriteConflict', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await t.db.collection('raced').insertOne({ _id: 'tx' } as never, { session });
      await t.db.collection('raced').insertOne({ _id: 'other' } as never);
      const err = (await session.commitTransaction().catch((e: unknown) => e)) as MongoServerError;
      expect(err).toBeInstanceOf(MongoServerError);
      expect(err.code).toBe(112);
      expect(err.hasErrorLabel('TransientTransactionError')).toBe(true);
    } finally {
      await session.endSession();
    }
    expect(await t.db.collection('raced').find().toArray()).toEqual([{ _id: 'other' }]);
  });
});

describe('createIndexes inside a transaction', () => {
  it('is allowed on a collection the transaction creates, and the index works once committed', async () => {
    const session = t.client.startSession();
    try {
      session.startTransaction();
      const c = t.db.collection('with_index');
      const name = await c.createIndex({ email: 1 }, { unique: true, session });
      expect(name).toBe('email_1');
      await c.insertOne({ _id: 1, email: 'a@x' } as never, { session });
      const dup = (await c
        .insertOne({ _id: 2, email: 'a@x' } as never, { session })
        .catch((e: unknown) => e)) as MongoServerError;
      expect(dup.code).toBe(11000);
      await session.abortTransaction().catch(() => undefined);
      // the abort took the collection and its index
      expect(await names()).not.toContain('with_index');
      session.startTransaction();
      await c.createIndex({ email: 1 }, { unique: true, session });
      await c.insertOne({ _id: 1, email: 'a@x' } as never, { session });
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    const c = t.db.collection('with_index');
    expect((await c.listIndexes().toArray()).map((i) => i.name).sort()).toEqual(['_id_', 'email_1']);
    await expect(c.insertOne({ _id: 3, email: 'a@x' } as never)).rejects.toMatchObject({ code: 11000 });
  });

  it('is allowed on an empty collection created earlier in the same transaction', async () => {
    const session = t.client.startSession();
    try {
      await session.withTransaction(async () => {
        await t.db.createCollection('created_then_indexed', { session });
        await t.db.collection('created_then_indexed').createIndex({ a: 1 }, { session });
      });
    } finally {
      await session.endSession();
    }
    const idx = await t.db.collection('created_then_indexed').listIndexes().toArray();
    expect(idx.map((i) => i.name).sort()).toEqual(['_id_', 'a_1']);
  });

  it('is refused with 263 on a collection that existed before the transaction', async () => {
    await t.db.collection('pre_existing').insertOne({ a: 1 });
    const err = await refusedInTransaction((session) =>
      t.db.collection('pre_existing').createIndex({ a: 1 }, { session }),
    );
    expect(err.code).toBe(263);
    expect(err.codeName).toBe('OperationNotSupportedInTransaction');
    expect((await t.db.collection('pre_existing').listIndexes().toArray()).length).toBe(1);
  });

  it('is refused with 263 on a collection the transaction already wrote documents into', async () => {
    const err = await refusedInTransaction(async (session) => {
      await t.db.collection('filled_in_txn').insertOne({ a: 1 }, { session });
      return t.db.collection('filled_in_txn').createIndex({ a: 1 }, { session });
    });
    expect(err.code).toBe(263);
  });
});

(usingRealMongo ? describe.skip : describe)('journal', () => {
  it('a collection and index created in a committed transaction survive a restart', async () => {
    const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'em-ddl-'));
    try {
      let server = await startEmbeddedMongo({ port: 0, dbPath, replSet: 'rs0' });
      let client = await MongoClient.connect(server.uri);
      const session = client.startSession();
      await session.withTransaction(async () => {
        const c = client.db('ddl').collection('c');
        await c.createIndex({ k: 1 }, { unique: true, session });
        await c.insertOne({ _id: 1, k: 'x' } as never, { session });
      });
      await session.endSession();
      await client.close();
      await server.stop();
      server = await startEmbeddedMongo({ port: 0, dbPath, replSet: 'rs0' });
      client = await MongoClient.connect(server.uri);
      try {
        const c = client.db('ddl').collection('c');
        expect(await c.find().toArray()).toEqual([{ _id: 1, k: 'x' }]);
        await expect(c.insertOne({ _id: 2, k: 'x' } as never)).rejects.toMatchObject({ code: 11000 });
      } finally {
        await client.close();
        await server.stop();
      }
    } finally {
      fs.rmSync(dbPath, { recursive: true, force: true });
    }
  });
});
