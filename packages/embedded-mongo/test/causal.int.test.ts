// Causal consistency. Replies carry operationTime and $clusterTime (replica-set
// mode), so the driver sends readConcern.afterClusterTime in a causally consistent session, and the
// server honours it: a time it has not reached yet is refused with MongoDB's 72 InvalidOptions.
import { CommandStartedEvent, MongoClient, MongoServerError, Timestamp } from 'mongodb';
import { usingRealMongo, useTestDatabase } from './support';
import { startEmbeddedMongo } from '../src';

const t = useTestDatabase({ replSet: 'rs0' });

function cmp(a: Timestamp, b: Timestamp): number {
  return a.t !== b.t ? a.t - b.t : a.i - b.i;
}

describe('operationTime and $clusterTime', () => {
  it('every reply carries them; a write moves operationTime forward, a read does not', async () => {
    const ping = await t.db.command({ ping: 1 });
    expect(ping.operationTime).toBeInstanceOf(Timestamp);
    expect(ping.$clusterTime.clusterTime).toBeInstanceOf(Timestamp);
    expect(ping.$clusterTime.signature.keyId).toBeDefined();
    const write = await t.db.command({ insert: 'clock', documents: [{ a: 1 }] });
    expect(cmp(write.operationTime, ping.operationTime)).toBeGreaterThan(0);
    expect(cmp(write.$clusterTime.clusterTime, write.operationTime)).toBeGreaterThanOrEqual(0);
    const read = await t.db.command({ find: 'clock', filter: {} });
    expect(cmp(read.operationTime, write.operationTime)).toBe(0);
    // An error reply is stamped too (MongoDB does so on replica-set members).
    const err = (await t.db.command({ noSuchCommand: 1 }).catch((e: unknown) => e)) as MongoServerError;
    expect(err.code).toBe(59);
    expect(err.errorResponse.operationTime).toBeInstanceOf(Timestamp);
  });

  it('a causally consistent session sends afterClusterTime = the operationTime of its last write', async () => {
    const client = await MongoClient.connect(t.uri, { monitorCommands: true });
    const sent: CommandStartedEvent[] = [];
    client.on('commandStarted', (e) => sent.push(e));
    const replies = new Map<number, Record<string, unknown>>();
    client.on('commandSucceeded', (e) => replies.set(e.requestId, e.reply as Record<string, unknown>));
    const session = client.startSession({ causalConsistency: true });
    try {
      const c = client.db(t.db.databaseName).collection('causal');
      await c.insertOne({ _id: 1 } as never, { session });
      const insert = sent.find((e) => e.commandName === 'insert')!;
      const opTime = replies.get(insert.requestId)!.operationTime as Timestamp;
      expect(opTime).toBeInstanceOf(Timestamp);
      expect(session.operationTime).toEqual(opTime);
      expect(await c.findOne({ _id: 1 } as never, { session })).toEqual({ _id: 1 });
      const find = sent.find((e) => e.commandName === 'find')!;
      expect(find.command.readConcern).toEqual({ afterClusterTime: opTime });
    } finally {
      await session.endSession();
      await client.close();
    }
  });

  it('afterClusterTime beyond the cluster time is 72 InvalidOptions; at or below it the read works', async () => {
    const now = (await t.db.command({ ping: 1 })).$clusterTime.clusterTime as Timestamp;
    const ok = await t.db.command({ find: 'clock', filter: {}, readConcern: { afterClusterTime: now } });
    expect(cmp(ok.operationTime, now)).toBeGreaterThanOrEqual(0);
    const future = new Timestamp({ t: now.t + 3600, i: 1 });
    const err = (await t.db
      .command({ find: 'clock', filter: {}, readConcern: { afterClusterTime: future } })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(72);
    expect(err.message).toMatch(/must not be greater than the current clusterTime/);
  });
});

(usingRealMongo ? describe.skip : describe)('standalone mode', () => {
  it('answers without cluster times, as a standalone mongod does', async () => {
    const server = await startEmbeddedMongo({ port: 0 });
    const client = await MongoClient.connect(server.uri);
    try {
      const reply = await client.db('x').command({ ping: 1 });
      expect(reply.operationTime).toBeUndefined();
      expect(reply.$clusterTime).toBeUndefined();
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
