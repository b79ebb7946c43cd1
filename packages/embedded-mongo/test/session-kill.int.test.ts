// A transaction a client leaves open (a failed test, a crashed process) must not hold its documents
// for ever: killAllSessions / killSessions / endSessions end it at once, and the server aborts it
// after transactionLifetimeLimitSeconds (settable with setParameter), as MongoDB does.
import { ClientSession, Collection, MongoClient, MongoServerError } from 'mongodb';
import { EmbeddedMongo, startEmbeddedMongo } from '../src';
import { failure, usingRealMongo } from './support';

const describeEmbedded = usingRealMongo ? describe.skip : describe;

let server: EmbeddedMongo;
let client: MongoClient;
// The clock transaction lifetimes are measured by: moved forward by the tests instead of waiting.
let clockOffsetMs = 0;

beforeAll(async () => {
  if (usingRealMongo) return;
  server = await startEmbeddedMongo({
    port: 0,
    replSet: 'rs0',
    ttlIntervalMs: 20,
    now: () => Date.now() + clockOffsetMs,
  });
  client = await MongoClient.connect(server.uri);
});

afterAll(async () => {
  if (usingRealMongo) return;
  await client.close();
  await server.stop();
});

/** A transaction that writes document 1 and is left open. */
async function abandonedTransaction(coll: Collection): Promise<ClientSession> {
  const session = client.startSession();
  session.startTransaction();
  await coll.updateOne({ _id: 1 } as never, { $inc: { n: 1 } }, { session });
  return session;
}

/** Another transaction writing document 1: the error it gets, or undefined when it commits. */
async function otherTransactionWrite(coll: Collection): Promise<MongoServerError | undefined> {
  const session = client.startSession();
  try {
    session.startTransaction();
    await coll.updateOne({ _id: 1 } as never, { $inc: { n: 10 } }, { session });
    await session.commitTransaction();
    return undefined;
  } catch (err) {
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    if (err instanceof MongoServerError) return err;
    throw err;
  } finally {
    await session.endSession();
  }
}

async function freshCollection(name: string): Promise<Collection> {
  const coll = client.db('kill').collection(name);
  await coll.insertOne({ _id: 1, n: 0 } as never);
  return coll;
}

/** Waits for the housekeeping tick (every 20 ms here) to have aborted the abandoned transaction. */
async function untilOtherWriteCommits(coll: Collection): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const err = await otherTransactionWrite(coll);
    if (!err) return;
    expect(err.code).toBe(112);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the abandoned transaction was never aborted');
}

describeEmbedded('killAllSessions, killSessions, endSessions', () => {
  it('killAllSessions: [] aborts an abandoned transaction, so its documents can be written again', async () => {
    const coll = await freshCollection('all');
    const abandoned = await abandonedTransaction(coll);
    const blocked = await otherTransactionWrite(coll);
    expect(blocked?.code).toBe(112);
    expect(blocked?.hasErrorLabel('TransientTransactionError')).toBe(true);

    expect(await client.db('admin').command({ killAllSessions: [] })).toMatchObject({ ok: 1 });

    expect(await otherTransactionWrite(coll)).toBeUndefined();
    // The killed transaction's commit: 251, labelled so withTransaction would run it again.
    const err = await failure(abandoned.commitTransaction());
    expect(err.code).toBe(251);
    expect(err.hasErrorLabel('TransientTransactionError')).toBe(true);
    await abandoned.endSession();
    expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 10 });
  });

  it('killAllSessions naming a user kills nobody else’s sessions (no session belongs to a user here)', async () => {
    const coll = await freshCollection('user');
    const abandoned = await abandonedTransaction(coll);
    await client.db('admin').command({ killAllSessions: [{ user: 'someone', db: 'admin' }] });
    expect((await otherTransactionWrite(coll))?.code).toBe(112);
    await abandoned.commitTransaction();
    await abandoned.endSession();
    expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 1 });
  });

  it('killSessions ends the named session’s transaction only', async () => {
    const a = await freshCollection('named-a');
    const b = await freshCollection('named-b');
    const killed = await abandonedTransaction(a);
    const kept = await abandonedTransaction(b);
    await client.db('admin').command({ killSessions: [killed.id] });
    expect(await otherTransactionWrite(a)).toBeUndefined();
    expect((await otherTransactionWrite(b))?.code).toBe(112);
    await kept.commitTransaction();
    await Promise.all([killed.endSession(), kept.endSession()]);
    await expect(client.db('admin').command({ killSessions: 'x' })).rejects.toMatchObject({ code: 14 });
  });

  it('endSessions aborts the session’s open transaction', async () => {
    const coll = await freshCollection('ended');
    const abandoned = await abandonedTransaction(coll);
    // The driver pools ended sessions and sends endSessions only when the client closes.
    await client.db('admin').command({ endSessions: [abandoned.id] });
    expect(await otherTransactionWrite(coll)).toBeUndefined();
    await abandoned.abortTransaction().catch(() => undefined);
    await abandoned.endSession();
  });
});

describeEmbedded('transactionLifetimeLimitSeconds', () => {
  afterEach(async () => {
    await client.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: 60 });
    clockOffsetMs = 0;
  });

  it('a transaction open longer than the limit is aborted by the server', async () => {
    const coll = await freshCollection('lifetime');
    const abandoned = await abandonedTransaction(coll);
    clockOffsetMs += 61_000;
    await untilOtherWriteCommits(coll);
    expect((await failure(abandoned.commitTransaction())).code).toBe(251);
    await abandoned.endSession();
  });

  it('setParameter changes the limit; getParameter reports it; a younger transaction is kept', async () => {
    const coll = await freshCollection('set');
    expect(
      await client.db('admin').command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 }),
    ).toMatchObject({ transactionLifetimeLimitSeconds: 60 });
    const abandoned = await abandonedTransaction(coll);
    clockOffsetMs += 5_000;
    // Younger than 60 s: the conflict stays (the housekeeping tick has run meanwhile).
    await new Promise((r) => setTimeout(r, 100));
    expect((await otherTransactionWrite(coll))?.code).toBe(112);

    expect(
      await client.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: 3 }),
    ).toMatchObject({ was: 60, ok: 1 });
    expect(
      await client.db('admin').command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 }),
    ).toMatchObject({ transactionLifetimeLimitSeconds: 3 });
    await untilOtherWriteCommits(coll);
    await abandoned.endSession();
  });

  it('setParameter refuses bad values, other parameters and other databases, changing nothing', async () => {
    const admin = client.db('admin');
    for (const bad of [0, -5, 1.5, 'ten']) {
      const err = await failure(admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: bad }));
      expect(err.code).toBe(2);
    }
    expect((await failure(admin.command({ setParameter: 1, logLevel: 2 }))).code).toBe(115);
    expect((await failure(admin.command({ setParameter: 1 }))).code).toBe(2);
    const notAdmin = await failure(
      client.db('kill').command({ setParameter: 1, transactionLifetimeLimitSeconds: 5 }),
    );
    expect(notAdmin.code).toBe(13);
    expect(await admin.command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 })).toMatchObject({
      transactionLifetimeLimitSeconds: 60,
    });
  });
});
