// readConcern snapshot outside transactions (MongoDB 5.0+). find, aggregate and
// distinct read a pinned snapshot and answer its atClusterTime, so a snapshot session's later reads
// see the same data; every other command refuses the level (72 InvalidOptions).
import { Timestamp } from 'mongodb';
import { failure, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

describe('snapshot sessions', () => {
  it('pin the first read: later find, aggregate and distinct do not see newer writes', async () => {
    const c = t.db.collection('pinned');
    await c.insertMany([
      { _id: 1, v: 'old', g: 'a' },
      { _id: 2, v: 'old', g: 'b' },
    ] as never[]);
    const session = t.client.startSession({ snapshot: true });
    try {
      expect(await c.find({}, { session }).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 'old', g: 'a' },
        { _id: 2, v: 'old', g: 'b' },
      ]);
      expect((session as unknown as { snapshotTime?: unknown }).snapshotTime).toBeInstanceOf(Timestamp);
      await c.updateOne({ _id: 1 } as never, { $set: { v: 'new' } });
      await c.deleteOne({ _id: 2 } as never);
      await c.insertOne({ _id: 3, v: 'new', g: 'c' } as never);
      expect(await c.find({}, { session }).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 'old', g: 'a' },
        { _id: 2, v: 'old', g: 'b' },
      ]);
      expect(await c.aggregate([{ $match: { v: 'old' } }, { $count: 'n' }], { session }).toArray()).toEqual([
        { n: 2 },
      ]);
      expect((await c.distinct('g', {}, { session })).sort()).toEqual(['a', 'b']);
    } finally {
      await session.endSession();
    }
    // Outside the session, the present.
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 'new', g: 'a' },
      { _id: 3, v: 'new', g: 'c' },
    ]);
  });

  it('a distinct as the first read also pins (atClusterTime in the reply body)', async () => {
    const c = t.db.collection('pinned_distinct');
    await c.insertOne({ _id: 1, g: 'a' } as never);
    const session = t.client.startSession({ snapshot: true });
    try {
      expect(await c.distinct('g', {}, { session })).toEqual(['a']);
      expect((session as unknown as { snapshotTime?: unknown }).snapshotTime).toBeInstanceOf(Timestamp);
      await c.insertOne({ _id: 2, g: 'b' } as never);
      expect(await c.countDocuments({}, { session })).toBe(1);
    } finally {
      await session.endSession();
    }
  });

  it('writes, listCollections, listIndexes, listDatabases and count refuse it with 72', async () => {
    const c = t.db.collection('snapshot_refused');
    await c.insertOne({ _id: 1 } as never);
    const session = t.client.startSession({ snapshot: true });
    try {
      await c.findOne({}, { session });
      const attempts: Array<Promise<unknown>> = [
        c.insertOne({ _id: 2 } as never, { session }),
        c.updateOne({ _id: 1 } as never, { $set: { a: 1 } }, { session }),
        c.deleteOne({ _id: 1 } as never, { session }),
        c.findOneAndUpdate({ _id: 1 } as never, { $set: { a: 1 } }, { session }),
        t.db.listCollections({}, { session }).toArray(),
        c.listIndexes({ session }).toArray(),
        t.client.db('admin').admin().listDatabases({ session }),
        c.estimatedDocumentCount({ session }),
      ];
      for (const attempt of attempts) {
        const err = await failure(attempt);
        expect(err.code).toBe(72);
      }
    } finally {
      await session.endSession();
    }
    expect(await c.find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('an atClusterTime the server no longer holds is 239 SnapshotTooOld; one in the future is 72', async () => {
    await t.db.collection('too_old').insertOne({ _id: 1 } as never);
    const first = await t.db.command({ ping: 1 });
    const old = first.operationTime as Timestamp;
    await t.db.collection('too_old').insertOne({ _id: 2 } as never);
    const tooOld = await failure(
      t.db.command({ find: 'too_old', readConcern: { level: 'snapshot', atClusterTime: old } }),
    );
    expect(tooOld.code).toBe(239);
    expect(tooOld.codeName).toBe('SnapshotTooOld');
    const future = new Timestamp({ t: old.t + 3600, i: 1 });
    const ahead = await failure(
      t.db.command({ find: 'too_old', readConcern: { level: 'snapshot', atClusterTime: future } }),
    );
    expect(ahead.code).toBe(72);
  });

  it('atClusterTime needs level snapshot, and an unknown level is refused', async () => {
    const now = (await t.db.command({ ping: 1 })).operationTime as Timestamp;
    const err = await failure(
      t.db.command({ find: 'x', readConcern: { level: 'majority', atClusterTime: now } }),
    );
    expect(err.code).toBe(72);
    const bad = await failure(t.db.command({ find: 'x', readConcern: { level: 'eventual' } }));
    expect(bad.code).toBe(9);
  });
});
