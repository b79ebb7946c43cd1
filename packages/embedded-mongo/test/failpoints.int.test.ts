// configureFailPoint with failCommand, only on a server started with test
// commands enabled (mongod's enableTestCommands), as the driver's own conformance tests use it.
import {
  CommandFailedEvent,
  CommandStartedEvent,
  CommandSucceededEvent,
  MongoClient,
  MongoServerError,
  MongoWriteConcernError,
} from 'mongodb';
import { EmbeddedMongo, startEmbeddedMongo } from '../src';
import { failure, usingRealMongo } from './support';

const describeEmbedded = usingRealMongo ? describe.skip : describe;

let server: EmbeddedMongo;
let client: MongoClient;
const started: CommandStartedEvent[] = [];
// The labels of each failed command's reply, as the server sent them (before the driver adds its own).
const replyLabels: Array<{ name: string; labels: string[] }> = [];

beforeAll(async () => {
  if (usingRealMongo) return;
  server = await startEmbeddedMongo({ port: 0, replSet: 'rs0', enableTestCommands: true });
  client = await MongoClient.connect(server.uri, { monitorCommands: true });
  client.on('commandStarted', (e) => started.push(e));
  client.on('commandSucceeded', (e: CommandSucceededEvent) => {
    const reply = e.reply as { errorLabels?: string[] };
    if (reply.errorLabels) replyLabels.push({ name: e.commandName, labels: reply.errorLabels });
  });
  client.on('commandFailed', (e: CommandFailedEvent) => {
    const labels = (e.failure as { errorLabels?: string[] }).errorLabels;
    replyLabels.push({ name: e.commandName, labels: labels ?? [] });
  });
});

afterAll(async () => {
  if (usingRealMongo) return;
  await client.close();
  await server.stop();
});

afterEach(async () => {
  if (usingRealMongo) return;
  await client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
  started.length = 0;
  replyLabels.length = 0;
});

function failCommand(mode: unknown, data: Record<string, unknown>) {
  return client.db('admin').command({ configureFailPoint: 'failCommand', mode, data });
}

function sent(name: string): number {
  return started.filter((e) => e.commandName === name).length;
}

describeEmbedded('without test commands', () => {
  it('configureFailPoint does not exist (59), as on a mongod started without enableTestCommands', async () => {
    const plain = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
    const c = await MongoClient.connect(plain.uri);
    try {
      await expect(
        c
          .db('admin')
          .command({ configureFailPoint: 'failCommand', mode: 'alwaysOn', data: { failCommands: ['find'] } }),
      ).rejects.toMatchObject({ code: 59 });
    } finally {
      await c.close();
      await plain.stop();
    }
  });
});

describeEmbedded('failCommand', () => {
  it('errorCode on a retryable write: labelled RetryableWriteError, the driver retries, one document', async () => {
    const coll = client.db('fp').collection('retried');
    await failCommand({ times: 1 }, { failCommands: ['insert'], errorCode: 91 });
    await coll.insertOne({ _id: 1 } as never);
    expect(sent('insert')).toBe(2);
    expect(await coll.find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('errorCode with explicit labels, and the error a driver sees when it may not retry', async () => {
    await failCommand({ times: 1 }, { failCommands: ['find'], errorCode: 2, errorLabels: ['Custom'] });
    const err = (await client
      .db('fp')
      .collection('x')
      .findOne({})
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(2);
    expect(err.codeName).toBe('BadValue');
    expect(err.message).toBe("Failing command via 'failCommand' failpoint");
    expect(err.hasErrorLabel('Custom')).toBe(true);
    // times: 1 is spent
    expect(await client.db('fp').collection('x').findOne({})).toBeNull();
  });

  it('TransientTransactionError inside a transaction: withTransaction runs it again, commits once', async () => {
    const coll = client.db('fp').collection('txn');
    await coll.insertOne({ _id: 0 } as never);
    await failCommand(
      { times: 1 },
      { failCommands: ['insert'], errorCode: 112, errorLabels: ['TransientTransactionError'] },
    );
    const session = client.startSession();
    let attempts = 0;
    try {
      await session.withTransaction(async () => {
        attempts++;
        await coll.insertOne({ _id: 1 } as never, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(attempts).toBe(2);
    expect(await coll.countDocuments()).toBe(2);
  });

  it('UnknownTransactionCommitResult on commit: the driver retries the commit, the writes land once', async () => {
    const coll = client.db('fp').collection('commit');
    await coll.insertOne({ _id: 0 } as never);
    await failCommand({ times: 1 }, { failCommands: ['commitTransaction'], errorCode: 91 });
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await coll.insertOne({ _id: 1 } as never, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(sent('commitTransaction')).toBe(2);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 0 }, { _id: 1 }]);
  });

  it('writeConcernError: the write is applied and the driver reports it', async () => {
    const coll = client.db('fp').collection('wce');
    await failCommand(
      { times: 1 },
      {
        failCommands: ['insert'],
        writeConcernError: {
          code: 100,
          codeName: 'UnsatisfiableWriteConcern',
          errmsg: 'Not enough data-bearing nodes',
        },
      },
    );
    const err = await coll.insertOne({ _id: 1 } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoWriteConcernError);
    expect((err as MongoWriteConcernError).code).toBe(100);
    expect(await coll.countDocuments()).toBe(1);
  });

  it('closeConnection: a retryable read is retried on a new connection; without retries it is a network error', async () => {
    await client
      .db('fp')
      .collection('closed')
      .insertOne({ _id: 1 } as never);
    await failCommand({ times: 1 }, { failCommands: ['find'], closeConnection: true });
    expect(
      await client
        .db('fp')
        .collection('closed')
        .findOne({ _id: 1 } as never),
    ).toEqual({ _id: 1 });
    expect(sent('find')).toBe(2);
    const noRetry = await MongoClient.connect(server.uri, { retryReads: false });
    try {
      await failCommand({ times: 1 }, { failCommands: ['find'], closeConnection: true });
      const err = (await noRetry
        .db('fp')
        .collection('closed')
        .findOne({})
        .catch((e: unknown) => e)) as Error;
      expect(err.name).toBe('MongoNetworkError');
    } finally {
      await noRetry.close();
    }
  });

  it('blockConnection holds the reply for blockTimeMS, then answers normally', async () => {
    await failCommand({ times: 1 }, { failCommands: ['ping'], blockConnection: true, blockTimeMS: 300 });
    const t0 = Date.now();
    await client.db('fp').command({ ping: 1 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
  });

  it('skip, alwaysOn and off', async () => {
    const coll = client.db('fp').collection('modes');
    await failCommand({ skip: 1 }, { failCommands: ['count'], errorCode: 2 });
    await coll.estimatedDocumentCount();
    await expect(coll.estimatedDocumentCount()).rejects.toMatchObject({ code: 2 });
    await expect(coll.estimatedDocumentCount()).rejects.toMatchObject({ code: 2 });
    await client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    await coll.estimatedDocumentCount();
    await failCommand('alwaysOn', { failCommands: ['count'], errorCode: 2 });
    await expect(coll.estimatedDocumentCount()).rejects.toMatchObject({ code: 2 });
    await expect(coll.estimatedDocumentCount()).rejects.toMatchObject({ code: 2 });
    // (`appName` is honoured against the handshake's client.application.name, but the driver sends
    // an empty client document when it runs inside jest's sandbox, so it is not asserted here.)
  });

  it('other fail points are refused rather than silently ignored', async () => {
    await expect(
      client.db('admin').command({ configureFailPoint: 'hangAfterCollectionInserts', mode: 'alwaysOn' }),
    ).rejects.toMatchObject({ code: 115 });
  });
});

describeEmbedded('failCommand error labels, as MongoDB gives them', () => {
  /** Runs one transaction inserting `_id` with session.withTransaction; the number of attempts. */
  async function withTransaction(collection: string, id: number): Promise<number> {
    const coll = client.db('fp').collection(collection);
    const session = client.startSession();
    let attempts = 0;
    try {
      await session.withTransaction(async () => {
        attempts++;
        await coll.insertOne({ _id: id } as never, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(await coll.find({ _id: id } as never).toArray()).toEqual([{ _id: id }]);
    return attempts;
  }

  it('NoSuchTransaction injected into commitTransaction: TransientTransactionError, the transaction runs again', async () => {
    await failCommand({ times: 1 }, { failCommands: ['commitTransaction'], errorCode: 251 });
    expect(await withTransaction('nst', 1)).toBe(2);
    expect(replyLabels[0]).toEqual({ name: 'commitTransaction', labels: ['TransientTransactionError'] });
  });

  it('WriteConflict injected into commitTransaction: TransientTransactionError, the transaction runs again', async () => {
    await failCommand({ times: 1 }, { failCommands: ['commitTransaction'], errorCode: 112 });
    expect(await withTransaction('wc', 1)).toBe(2);
    expect(replyLabels[0].labels).toEqual(['TransientTransactionError']);
  });

  it('a retryable code on commit: RetryableWriteError and UnknownTransactionCommitResult, the commit is retried', async () => {
    await failCommand({ times: 1 }, { failCommands: ['commitTransaction'], errorCode: 189 });
    expect(await withTransaction('stepdown', 1)).toBe(1);
    expect(sent('commitTransaction')).toBe(2);
    expect(replyLabels[0].labels).toEqual(['RetryableWriteError', 'UnknownTransactionCommitResult']);
  });

  it('MaxTimeMSExpired on commit: UnknownTransactionCommitResult only (the driver leaves it to the caller)', async () => {
    await failCommand({ times: 1 }, { failCommands: ['commitTransaction'], errorCode: 50 });
    const err = await failure(withTransaction('maxtime', 1));
    expect(err.code).toBe(50);
    expect(err.hasErrorLabel('UnknownTransactionCommitResult')).toBe(true);
    expect(replyLabels[0].labels).toEqual(['UnknownTransactionCommitResult']);
  });

  it('a write concern error on commit: UnknownTransactionCommitResult, unless the concern is unsatisfiable', async () => {
    await failCommand(
      { times: 1 },
      {
        failCommands: ['commitTransaction'],
        writeConcernError: {
          code: 64,
          codeName: 'WriteConcernFailed',
          errmsg: 'waiting for replication timed out',
        },
      },
    );
    expect(await withTransaction('commit-wce', 1)).toBe(1);
    expect(replyLabels[0]).toEqual({ name: 'commitTransaction', labels: ['UnknownTransactionCommitResult'] });
    replyLabels.length = 0;
    await failCommand(
      { times: 1 },
      {
        failCommands: ['commitTransaction'],
        writeConcernError: {
          code: 100,
          codeName: 'UnsatisfiableWriteConcern',
          errmsg: 'Not enough data-bearing nodes',
        },
      },
    );
    await expect(withTransaction('commit-wce', 2)).rejects.toBeInstanceOf(MongoWriteConcernError);
    expect(replyLabels).toEqual([]);
  });

  it('inside a transaction: retryable codes and LockTimeout are transient; other errors are not; explicit labels win', async () => {
    const labelsOf = async (errorCode: number, errorLabels?: string[]): Promise<string[]> => {
      await failCommand(
        { times: 1 },
        { failCommands: ['find'], errorCode, ...(errorLabels ? { errorLabels } : {}) },
      );
      const session = client.startSession();
      try {
        session.startTransaction();
        const err = await client
          .db('fp')
          .collection('inside')
          .findOne({}, { session })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(MongoServerError);
        return (err as MongoServerError).errorLabels;
      } finally {
        await session.abortTransaction().catch(() => undefined);
        await session.endSession();
      }
    };
    expect(await labelsOf(262)).toEqual(['TransientTransactionError']);
    expect(await labelsOf(24)).toEqual(['TransientTransactionError']);
    expect(await labelsOf(2)).toEqual([]);
    expect(await labelsOf(112, ['Custom'])).toEqual(['Custom']);
  });

  it('NoSuchTransaction on abortTransaction is transient; outside a transaction a retryable read gets no label', async () => {
    await failCommand({ times: 1 }, { failCommands: ['abortTransaction'], errorCode: 251 });
    const session = client.startSession();
    session.startTransaction();
    await client
      .db('fp')
      .collection('abort')
      .insertOne({ _id: 1 } as never, { session });
    // The driver swallows abort errors; the reply's labels are what the server answered.
    await session.abortTransaction();
    await session.endSession();
    expect(replyLabels[0]).toEqual({ name: 'abortTransaction', labels: ['TransientTransactionError'] });
  });
});
