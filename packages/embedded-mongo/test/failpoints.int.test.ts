// Issue 25, item 7: configureFailPoint with failCommand, only on a server started with test
// commands enabled (mongod's enableTestCommands), as the driver's own conformance tests use it.
import { CommandStartedEvent, MongoClient, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { EmbeddedMongo, startEmbeddedMongo } from '../src';
import { usingRealMongo } from './support';

const describeEmbedded = usingRealMongo ? describe.skip : describe;

let server: EmbeddedMongo;
let client: MongoClient;
const started: CommandStartedEvent[] = [];

beforeAll(async () => {
  if (usingRealMongo) return;
  server = await startEmbeddedMongo({ port: 0, replSet: 'rs0', enableTestCommands: true });
  client = await MongoClient.connect(server.uri, { monitorCommands: true });
  client.on('commandStarted', (e) => started.push(e));
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
