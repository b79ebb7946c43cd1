// $listLocalSessions shows the server's session cache.
import { Binary, MongoClient, MongoServerError } from 'mongodb';
import { useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

async function listed(): Promise<Array<{ _id: { id: Binary; uid: Binary }; lastUse: Date }>> {
  return (await t.client
    .db('admin')
    .aggregate([{ $listLocalSessions: {} }])
    .toArray()) as never;
}

describe('$listLocalSessions', () => {
  it('lists a session once a command used it, with lastUse, until endSessions', async () => {
    const session = t.client.startSession();
    const id = (session.id!.id as Binary).toString('hex');
    await t.db.collection('s').insertOne({ a: 1 }, { session });
    const found = (await listed()).find((s) => s._id.id.toString('hex') === id);
    expect(found).toBeDefined();
    expect(found!.lastUse).toBeInstanceOf(Date);
    expect(found!._id.uid.toString('base64')).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    const filtered = await t.client
      .db('admin')
      .aggregate([{ $listLocalSessions: { allUsers: true } }, { $match: { '_id.id': session.id!.id } }])
      .toArray();
    expect(filtered).toHaveLength(1);
    await session.endSession();
    // The driver pools ended sessions and would reuse this one for the next command, so another
    // client ends it and lists.
    const other = await MongoClient.connect(t.uri);
    try {
      await other.db('admin').command({ endSessions: [session.id] });
      const after = await other
        .db('admin')
        .aggregate([{ $listLocalSessions: {} }])
        .toArray();
      expect(after.some((s) => (s._id.id as Binary).toString('hex') === id)).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('only on admin with aggregate: 1 (50787), and only as the first stage (40602)', async () => {
    const err = (await t.db
      .aggregate([{ $listLocalSessions: {} }])
      .toArray()
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err.code).toBe(50787);
    // (With aggregate: 1 the first stage must make documents: $match there is 73, checked first.)
    const second = (await t.client
      .db('admin')
      .collection('any')
      .aggregate([{ $match: {} }, { $listLocalSessions: {} }])
      .toArray()
      .catch((e: unknown) => e)) as MongoServerError;
    expect(second.code).toBe(40602);
  });
});
