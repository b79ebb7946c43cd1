import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type EmbeddedMongo, startEmbeddedMongo } from '@lsp/embedded-mongo';
import { Decimal128, Int32, Long, MongoClient } from 'mongodb';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const npmScript = (script: string, args: string[]) =>
  run(process.execPath, [path.join(ROOT, 'scripts', script), ...args], { cwd: ROOT });

describe('npm run backup / npm run restore', () => {
  let dir: string;
  let server: EmbeddedMongo;
  let client: MongoClient;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'backup-'));
    server = await startEmbeddedMongo({ port: 0, dbPath: path.join(dir, 'live'), replSet: 'rs0' });
    client = await MongoClient.connect(`${server.uri}&directConnection=true`);
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every document and index of a running server into a fresh folder, types intact', async () => {
    const dips = client.db('dip').collection('online_dips');
    await dips.createIndex({ quoteCode: 1 }, { unique: true });
    await dips.insertMany(
      Array.from({ length: 250 }, (_, i) => ({
        _id: `dip-${i}` as never,
        quoteCode: `DIP-${String(i).padStart(6, '0')}`,
        netLoan: Decimal128.fromString(`${100000 + i}.50`),
        loanIndex: new Int32(i % 7),
        version: Long.fromNumber(1),
        rate: 0.0875,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        snapshot: { lender: { name: 'Lender <&>' }, tags: ['a', 'b'] },
      })),
    );
    await client.db('identity').collection('users').insertOne({ email: 'a@example.com', name: 'Ann' });
    await client.db('sharing').createCollection('referrals');

    // Writes go on while the backup runs, each adding one document to two collections at once: the
    // copy must hold each pair in both or in neither, which only a snapshot across collections gives.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing && i < 2000; i++) {
        const session = client.startSession();
        await session.withTransaction(async () => {
          await client.db('search').collection('pairs_a').insertOne({ pair: i }, { session });
          await client.db('search').collection('pairs_b').insertOne({ pair: i }, { session });
        });
        await session.endSession();
      }
    })();
    const out = path.join(dir, 'backup');
    const { stdout } = await npmScript('backup.mjs', [
      '--uri',
      `${server.uri}&directConnection=true`,
      '--out',
      out,
    ]);
    writing = false;
    await writer;
    expect(stdout).toMatch(/Backed up \d+ documents in \d+ collections of 4 databases/);
    expect(readdirSync(path.join(out, 'dip')).sort()).toEqual([
      'online_dips.bson',
      'online_dips.metadata.json',
    ]);
    expect(statSync(path.join(out, 'dip', 'online_dips.bson')).mode & 0o077).toBe(0);

    const fresh = path.join(dir, 'fresh');
    const restored = await npmScript('restore.mjs', [out, '--dbpath', fresh]);
    expect(restored.stdout).toMatch(/Restored \d+ documents/);

    const copy = await startEmbeddedMongo({ port: 0, dbPath: fresh, replSet: 'rs0' });
    const copyClient = await MongoClient.connect(`${copy.uri}&directConnection=true`);
    try {
      const original = await dips.find({}, { promoteValues: false }).sort({ _id: 1 }).toArray();
      const copied = await copyClient
        .db('dip')
        .collection('online_dips')
        .find({}, { promoteValues: false })
        .sort({ _id: 1 })
        .toArray();
      expect(copied).toHaveLength(250);
      expect(copied).toEqual(original);
      expect(copied[3].netLoan).toBeInstanceOf(Decimal128);
      const indexNames = (await copyClient.db('dip').collection('online_dips').indexes()).map(
        (ix) => ix.name,
      );
      expect(indexNames).toContain('quoteCode_1');
      await expect(
        copyClient.db('dip').collection('online_dips').insertOne({ quoteCode: 'DIP-000001' }),
      ).rejects.toMatchObject({ code: 11000 });
      expect(
        await copyClient
          .db('identity')
          .collection('users')
          .findOne({}, { projection: { _id: 0 } }),
      ).toEqual({
        email: 'a@example.com',
        name: 'Ann',
      });
      const collections = await copyClient.db('sharing').listCollections().toArray();
      expect(collections.map((c) => c.name)).toContain('referrals');
      const pairsIn = async (name: string) =>
        (await copyClient.db('search').collection(name).find().toArray()).map((p) => p.pair as number).sort();
      const [a, b] = [await pairsIn('pairs_a'), await pairsIn('pairs_b')];
      expect(a.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
    } finally {
      await copyClient.close();
      await copy.stop();
    }
  });

  it('refuses to restore over documents that are already there', async () => {
    const out = path.join(dir, 'backup');
    await expect(
      npmScript('restore.mjs', [out, '--uri', `${server.uri}&directConnection=true`]),
    ).rejects.toMatchObject({
      stderr: expect.stringMatching(
        /already holds \d+ documents: restore into an empty database, or pass --drop/,
      ),
    });
  });
});
