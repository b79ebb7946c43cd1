import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedMongo, EmbeddedMongoOptions, startEmbeddedMongo } from '../src';
import { temporaryFolders, usingRealMongo } from './support';

// Durability is a property of the embedded server itself, so these tests never use MONGO_URL.
const suite = usingRealMongo ? describe.skip : describe;

const ROOT = path.resolve(__dirname, '../../..');
const tempDir = temporaryFolders('embedded-mongo-');

async function withServer<T>(
  options: EmbeddedMongoOptions,
  fn: (client: MongoClient, server: EmbeddedMongo) => Promise<T>,
): Promise<T> {
  const server = await startEmbeddedMongo({ port: 0, replSet: 'rs0', ...options });
  const client = await MongoClient.connect(server.uri);
  try {
    return await fn(client, server);
  } finally {
    await client.close();
    await server.stop();
  }
}

suite('journal', () => {
  it('restores documents, indexes and drops after a restart', async () => {
    const dbPath = tempDir();
    await withServer({ dbPath }, async (client) => {
      const db = client.db('app');
      await db.collection('users').createIndex({ email: 1 }, { unique: true });
      await db.collection('users').insertMany([{ email: 'a' }, { email: 'b' }]);
      await db.collection('users').updateOne({ email: 'b' }, { $set: { name: 'Bee' } });
      await db.collection('users').deleteOne({ email: 'a' });
      await db.collection('gone').insertOne({ x: 1 });
      await db.collection('gone').drop();
    });
    await withServer({ dbPath }, async (client) => {
      const db = client.db('app');
      expect(
        await db
          .collection('users')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).toEqual([{ email: 'b', name: 'Bee' }]);
      expect((await db.listCollections().toArray()).map((c) => c.name)).toEqual(['users']);
      await expect(db.collection('users').insertOne({ email: 'b' })).rejects.toMatchObject({ code: 11000 });
    });
  });

  it('drops a torn last record and keeps everything before it', async () => {
    const dbPath = tempDir();
    await withServer({ dbPath }, async (client) => {
      await client
        .db('app')
        .collection('c')
        .insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    });
    const journal = path.join(dbPath, 'journal.wal');
    const intact = fs.statSync(journal).size;
    // A record header promising 200 bytes followed by only a few: a write cut short by a crash.
    const torn = Buffer.alloc(20);
    torn.writeUInt32LE(200, 0);
    fs.appendFileSync(journal, torn);
    await withServer({ dbPath }, async (client) => {
      const coll = client.db('app').collection('c');
      expect(await coll.countDocuments()).toBe(2);
      await coll.insertOne({ _id: 3 } as never);
    });
    expect(fs.statSync(journal).size).toBeGreaterThan(intact);
    await withServer({ dbPath }, async (client) => {
      expect(await client.db('app').collection('c').countDocuments()).toBe(3);
    });
  });

  it('ignores a last record whose checksum does not match', async () => {
    const dbPath = tempDir();
    await withServer({ dbPath }, async (client) => {
      await client
        .db('app')
        .collection('c')
        .insertOne({ _id: 1 } as never);
      await client
        .db('app')
        .collection('c')
        .insertOne({ _id: 2 } as never);
    });
    const journal = path.join(dbPath, 'journal.wal');
    const bytes = fs.readFileSync(journal);
    bytes[bytes.length - 3] ^= 0xff;
    fs.writeFileSync(journal, bytes);
    await withServer({ dbPath }, async (client) => {
      expect(await client.db('app').collection('c').find().toArray()).toEqual([{ _id: 1 }]);
    });
  });

  it('compacts the journal into a snapshot and recovers from it', async () => {
    const dbPath = tempDir();
    await withServer({ dbPath, compactBytes: 64 * 1024 }, async (client) => {
      const coll = client.db('app').collection('c');
      await coll.createIndex({ k: 1 }, { unique: true });
      for (let round = 0; round < 5; round++) {
        await coll.insertMany(
          Array.from({ length: 400 }, (_, i) => ({ k: round * 1000 + i, pad: 'x'.repeat(50) })),
        );
        await coll.deleteMany({ k: { $lt: round * 1000 + 200 } });
      }
    });
    expect(fs.existsSync(path.join(dbPath, 'snapshot.bin'))).toBe(true);
    expect(fs.statSync(path.join(dbPath, 'journal.wal')).size).toBeLessThan(64 * 1024 + 50_000);
    await withServer({ dbPath }, async (client) => {
      const coll = client.db('app').collection('c');
      expect(await coll.countDocuments()).toBe(200);
      await expect(coll.insertOne({ k: 4399 })).rejects.toMatchObject({ code: 11000 });
    });
  });

  it('skips a journal that predates the snapshot (crash between snapshot and truncate)', async () => {
    const dbPath = tempDir();
    await withServer({ dbPath }, async (client) => {
      const coll = client.db('app').collection('c');
      await coll.insertOne({ _id: 1 } as never);
      await coll.drop();
    });
    const oldJournal = fs.readFileSync(path.join(dbPath, 'journal.wal'));
    await withServer({ dbPath, compactBytes: 1 }, async (client) => {
      await client
        .db('app')
        .collection('c')
        .insertOne({ _id: 2 } as never);
    });
    // Replaying the old journal over the snapshot would drop the collection again.
    fs.writeFileSync(path.join(dbPath, 'journal.wal'), oldJournal);
    await withServer({ dbPath }, async (client) => {
      expect(await client.db('app').collection('c').find().toArray()).toEqual([{ _id: 2 }]);
      await client
        .db('app')
        .collection('c')
        .insertOne({ _id: 3 } as never);
    });
    await withServer({ dbPath }, async (client) => {
      expect(await client.db('app').collection('c').countDocuments()).toBe(2);
    });
  });

  it('journals a transaction larger than 16 MiB and recovers it whole', async () => {
    const dbPath = tempDir();
    await withServer({ dbPath }, async (client) => {
      const session = client.startSession();
      try {
        await session.withTransaction(async () => {
          for (let i = 0; i < 20; i++)
            await client
              .db('app')
              .collection('big')
              .insertOne({ i, pad: 'x'.repeat(1024 * 1024) }, { session });
        });
      } finally {
        await session.endSession();
      }
    });
    await withServer({ dbPath }, async (client) => {
      expect(await client.db('app').collection('big').countDocuments()).toBe(20);
    });
  });

  it('refuses a second server on the same dbPath with a clear message', async () => {
    const dbPath = tempDir();
    const first = await startEmbeddedMongo({ port: 0, dbPath });
    try {
      await expect(startEmbeddedMongo({ port: 0, dbPath })).rejects.toThrow(
        /in use by another embedded-mongo server/,
      );
    } finally {
      await first.stop();
    }
    const again = await startEmbeddedMongo({ port: 0, dbPath });
    await again.stop();
  });
});

function startChild(dbPath: string): Promise<{ child: ChildProcess; uri: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'fixtures/crash-server.ts'), dbPath, String(256 * 1024)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, uri: (JSON.parse(line) as { uri: string }).uri });
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`server exited early (${code}): ${err}`)));
  });
}

suite('crash', () => {
  it('keeps every acknowledged write and no half transaction after SIGKILL', async () => {
    const dbPath = tempDir();
    const { child, uri } = await startChild(dbPath);
    const client = await MongoClient.connect(uri, { retryWrites: false, serverSelectionTimeoutMS: 2000 });
    const acknowledged: number[] = [];
    const committedPairs: number[] = [];
    let stop = false;
    const exited = new Promise((r) => child.once('exit', r));
    const singles = (async () => {
      for (let i = 0; !stop; i++) {
        try {
          await client
            .db('app')
            .collection('single')
            .insertOne({ _id: i, pad: 'y'.repeat(200) } as never);
          acknowledged.push(i);
        } catch {
          return;
        }
      }
    })();
    const pairs = (async () => {
      for (let i = 0; !stop; i++) {
        const session = client.startSession();
        try {
          session.startTransaction();
          await client
            .db('app')
            .collection('pairs')
            .insertOne({ _id: `${i}-a`, i } as never, { session });
          await client
            .db('app')
            .collection('pairs')
            .insertOne({ _id: `${i}-b`, i } as never, { session });
          await client
            .db('app')
            .collection('totals')
            .updateOne({ _id: 'n' } as never, { $inc: { n: 1 } }, { session, upsert: true });
          await session.commitTransaction();
          committedPairs.push(i);
        } catch {
          return;
        } finally {
          await session.endSession().catch(() => undefined);
        }
      }
    })();
    while (acknowledged.length < 1500 || committedPairs.length < 150)
      await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    stop = true;
    await Promise.all([singles, pairs]);
    await client.close(true);

    await withServer({ dbPath }, async (restarted) => {
      const db = restarted.db('app');
      const singlesStored = new Set(
        (
          await db
            .collection('single')
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((d) => d._id as unknown as number),
      );
      expect(acknowledged.filter((i) => !singlesStored.has(i))).toEqual([]);
      const pairDocs = await db.collection('pairs').find().toArray();
      const perTxn = new Map<number, number>();
      for (const d of pairDocs) perTxn.set(d.i as number, (perTxn.get(d.i as number) ?? 0) + 1);
      expect([...perTxn.values()].filter((n) => n !== 2)).toEqual([]);
      expect(committedPairs.filter((i) => perTxn.get(i) !== 2)).toEqual([]);
      const total = await db.collection('totals').findOne({ _id: 'n' } as never);
      expect(total!.n).toBe(perTxn.size);
    });
  }, 60_000);
});
