// Data safety: a full disk, a damaged journal and a missing data folder each give
// a clear message and lose nothing that was acknowledged. The disk is made to fail through the
// journal's write seam (fileWrites), not by filling a real disk.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedMongo, EmbeddedMongoOptions, startEmbeddedMongo } from '../src';
import { fileWrites } from '../src/storage/journal';
import { temporaryFolders, usingRealMongo } from './support';

// Properties of the embedded server's own files; a real MongoDB is not under test here.
const suite = usingRealMongo ? describe.skip : describe;

const ROOT = path.resolve(__dirname, '../../..');
const realWrite = fileWrites.write;
const tempDir = temporaryFolders('embedded-mongo-faults-');

afterEach(() => {
  fileWrites.write = realWrite;
});

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });
}

/**
 * The disk fills up: each write that should land writes part of its bytes and the next call fails,
 * as a real short write followed by ENOSPC does. `which` limits it to journal (positioned) or
 * snapshot (sequential) writes.
 */
function fillDisk(which: 'journal' | 'snapshot' | 'all' = 'all'): void {
  let partial = true;
  fileWrites.write = (fd, buf, offset, length, position) => {
    const isJournal = position !== null;
    if (which === 'journal' && !isJournal) return realWrite(fd, buf, offset, length, position);
    if (which === 'snapshot' && isJournal) return realWrite(fd, buf, offset, length, position);
    partial = !partial;
    if (!partial && length > 1) return realWrite(fd, buf, offset, Math.floor(length / 2), position);
    throw enospc();
  };
}

interface Running {
  server: EmbeddedMongo;
  client: MongoClient;
  lines: string[];
  stop(): Promise<void>;
}

async function run(options: EmbeddedMongoOptions): Promise<Running> {
  const lines: string[] = [];
  const server = await startEmbeddedMongo({
    port: 0,
    replSet: 'rs0',
    log: (m) => lines.push(m),
    warn: (m) => lines.push(`WARN ${m}`),
    ...options,
  });
  const client = await MongoClient.connect(server.uri);
  return {
    server,
    client,
    lines,
    async stop() {
      await client.close();
      await server.stop();
    },
  };
}

/** The documents of app.c when the server is started again on the same folder, in _id order. */
async function storedAfterRestart(dbPath: string): Promise<unknown[]> {
  const again = await run({ dbPath });
  try {
    return await again.client.db('app').collection('c').find().sort({ _id: 1 }).toArray();
  } finally {
    await again.stop();
  }
}

/** Offsets of the journal's records ([u32 length][u32 crc][BSON]). */
function recordOffsets(file: string): number[] {
  const buf = fs.readFileSync(file);
  const out: number[] = [];
  for (let off = 0; off + 8 <= buf.length; off += 8 + buf.readUInt32LE(off)) out.push(off);
  return out;
}

suite('full disk', () => {
  it('refuses the writes, keeps reads, logs once, recovers, and a restart finds exactly the acknowledged ones', async () => {
    const dbPath = tempDir();
    const journal = path.join(dbPath, 'journal.wal');
    const a = await run({ dbPath });
    const coll = a.client.db('app').collection<{ _id: number; v?: number }>('c');
    await coll.insertOne({ _id: 1, v: 1 });
    await coll.createIndex({ v: 1 }, { unique: true });
    const goodSize = fs.statSync(journal).size;

    fillDisk();
    const refused = { code: 14031, codeName: 'OutOfDiskSpace' };
    await expect(coll.insertOne({ _id: 2 })).rejects.toMatchObject(refused);
    await expect(coll.insertOne({ _id: 2 })).rejects.toThrow(
      `disk full: writes refused until space is freed (path ${journal}, ENOSPC)`,
    );
    await expect(coll.insertMany([{ _id: 3 }, { _id: 4 }])).rejects.toMatchObject(refused);
    await expect(coll.updateOne({ _id: 1 }, { $set: { v: 9 } })).rejects.toMatchObject(refused);
    await expect(coll.deleteOne({ _id: 1 })).rejects.toMatchObject(refused);
    await expect(coll.dropIndex('v_1')).rejects.toMatchObject(refused);
    await expect(a.client.db('app').createCollection('other')).rejects.toMatchObject(refused);
    await expect(coll.rename('renamed')).rejects.toMatchObject(refused);
    const session = a.client.startSession();
    try {
      session.startTransaction();
      await coll.insertOne({ _id: 6 }, { session });
      await expect(session.commitTransaction()).rejects.toMatchObject(refused);
    } finally {
      await session.endSession();
    }

    // Nothing of the refused writes is visible or left in the file; reads keep working.
    expect(fs.statSync(journal).size).toBe(goodSize);
    expect(await coll.find().toArray()).toEqual([{ _id: 1, v: 1 }]);
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_', 'v_1']);
    expect((await a.client.db('app').listCollections().toArray()).map((c) => c.name)).toEqual(['c']);
    expect(a.lines.filter((l) => l.includes('disk full'))).toEqual([
      `WARN disk full: writes refused until space is freed (path ${journal}, ENOSPC)`,
    ]);

    // Space is freed: the next write goes through and says so.
    fileWrites.write = realWrite;
    await coll.insertOne({ _id: 5, v: 5 });
    expect(a.lines).toContain('WARN disk: a write succeeded again; writes are accepted');
    await a.stop();

    const b = await run({ dbPath });
    try {
      const c = b.client.db('app').collection<{ _id: number; v?: number }>('c');
      expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 1 },
        { _id: 5, v: 5 },
      ]);
      await expect(c.insertOne({ _id: 7, v: 5 })).rejects.toMatchObject({ code: 11000 });
      expect(b.lines.some((l) => l.includes('torn'))).toBe(false);
    } finally {
      await b.stop();
    }
  });

  it('keeps a write acknowledged when only the snapshot it triggered does not fit, and cleans up', async () => {
    const dbPath = tempDir();
    const a = await run({ dbPath, compactBytes: 1 });
    fillDisk('snapshot');
    const coll = a.client.db('app').collection<{ _id: number }>('c');
    await coll.insertOne({ _id: 1 });
    await coll.insertOne({ _id: 2 });
    expect(a.lines.filter((l) => l.includes('could not write a snapshot'))).toEqual([
      expect.stringContaining(
        `WARN disk full: could not write a snapshot (path ${dbPath}/snapshot.tmp, ENOSPC)`,
      ),
    ]);
    expect(fs.existsSync(path.join(dbPath, 'snapshot.tmp'))).toBe(false);
    fileWrites.write = realWrite;
    await a.stop();
    const b = await run({ dbPath });
    try {
      expect(await b.client.db('app').collection('c').countDocuments()).toBe(2);
    } finally {
      await b.stop();
    }
  });
});

suite('damaged journal', () => {
  async function journalWithThree(): Promise<string> {
    const dbPath = tempDir();
    const a = await run({ dbPath });
    const coll = a.client.db('app').collection<{ _id: number }>('c');
    for (const _id of [1, 2, 3]) await coll.insertOne({ _id });
    await a.stop();
    return dbPath;
  }

  it('cuts a torn last record, says how many bytes, and keeps the records before it', async () => {
    const dbPath = await journalWithThree();
    const journal = path.join(dbPath, 'journal.wal');
    const size = fs.statSync(journal).size;
    // A crash in the middle of writing a fourth record: its header and half its body.
    fs.appendFileSync(journal, Buffer.concat([Buffer.from([40, 0, 0, 0, 1, 2, 3, 4]), Buffer.alloc(12, 7)]));
    const b = await run({ dbPath });
    try {
      expect(b.lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^WARN journal: dropped a torn last record \\(20 bytes after byte ${size} of .*journal\\.wal`,
          ),
        ),
      );
      expect(await b.client.db('app').collection('c').countDocuments()).toBe(3);
    } finally {
      await b.stop();
    }
    expect(fs.statSync(journal).size).toBe(size);
  });

  it('refuses to start on damage followed by intact records, leaves the file alone, and the advice works', async () => {
    const dbPath = await journalWithThree();
    const journal = path.join(dbPath, 'journal.wal');
    const offsets = recordOffsets(journal);
    // Records: journalStart, create, put 1, put 2, put 3. Damage the one holding _id 2.
    const damaged = offsets[3];
    const bytes = fs.readFileSync(journal);
    bytes[damaged + 12] ^= 0xff;
    fs.writeFileSync(journal, bytes);

    const attempt = startEmbeddedMongo({ port: 0, dbPath, log: () => undefined });
    await expect(attempt).rejects.toThrow(
      new RegExp(
        `journal .*journal\\.wal is damaged at byte ${damaged} of ${bytes.length}, with 1 intact records after the damage; it was not changed`,
      ),
    );
    await expect(attempt).rejects.toThrow(/npm run restore -- /);
    await expect(attempt).rejects.toThrow(`head -c ${damaged} ${journal}.damaged > ${journal}`);
    expect(fs.readFileSync(journal).equals(bytes)).toBe(true);
    // The lock was released: following the advice, the server starts with the records before it.
    fs.renameSync(journal, `${journal}.damaged`);
    fs.writeFileSync(journal, bytes.subarray(0, damaged));
    expect(await storedAfterRestart(dbPath)).toEqual([{ _id: 1 }]);
  });

  it('refuses to start on a damaged snapshot instead of loading part of it', async () => {
    const dbPath = tempDir();
    const a = await run({ dbPath, compactBytes: 1 });
    await a.client.db('app').collection('c').insertOne({ x: 1 });
    await a.stop();
    const snapshot = path.join(dbPath, 'snapshot.bin');
    const bytes = fs.readFileSync(snapshot);
    bytes[20] ^= 0xff;
    fs.writeFileSync(snapshot, bytes);
    await expect(startEmbeddedMongo({ port: 0, dbPath })).rejects.toThrow(/snapshot .* is damaged/);
    expect(fs.readFileSync(snapshot).equals(bytes)).toBe(true);
  });
});

suite('data folder', () => {
  it('creates a missing folder 0700 and says so once', async () => {
    const dbPath = path.join(tempDir(), 'not', 'yet');
    const a = await run({ dbPath });
    expect(a.lines).toContain(
      `WARN data folder ${dbPath} did not exist: created it (mode 0700), starting with no data`,
    );
    expect(fs.statSync(dbPath).mode & 0o777).toBe(0o700);
    await a.client.db('app').collection('c').insertOne({ x: 1 });
    await a.stop();
    const b = await run({ dbPath });
    try {
      expect(b.lines.filter((l) => l.includes('did not exist'))).toEqual([]);
      expect(await b.client.db('app').collection('c').countDocuments()).toBe(1);
    } finally {
      await b.stop();
    }
  });

  it('stops start-up on an unusable location with the path and the fix, on stderr and without a stack', async () => {
    const blocker = path.join(tempDir(), 'a-file');
    fs.writeFileSync(blocker, '');
    const dbPath = path.join(blocker, 'mongo');
    const problem = `cannot use data folder ${dbPath}: part of the path is a file, not a folder (ENOTDIR`;
    await expect(startEmbeddedMongo({ port: 0, dbPath })).rejects.toThrow(problem);
    await expect(startEmbeddedMongo({ port: 0, dbPath })).rejects.toThrow(
      `Fix: make it a folder this user (uid ${process.getuid!()}) can write (mkdir -p ${dbPath} && chmod 700 ${dbPath}), or start with another --dbpath.`,
    );
    // What `npm start` shows: the CLI's stderr, one line, exit code 1.
    const cli = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'packages/embedded-mongo/bin/embedded-mongo.ts', '--port', '0', '--dbpath', dbPath],
      { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
    );
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain(`[embedded-mongo] ${problem}`);
    expect(cli.stderr).not.toMatch(/^\s+at /m);
  });

  it('recreates a folder deleted while running from memory, so acknowledged writes survive', async () => {
    const dbPath = tempDir();
    const a = await run({ dbPath });
    const coll = a.client.db('app').collection<{ _id: number }>('c');
    await coll.insertOne({ _id: 1 });
    fs.rmSync(dbPath, { recursive: true });
    await coll.insertOne({ _id: 2 });
    expect(a.lines).toContainEqual(
      expect.stringContaining(`WARN data folder ${dbPath} (or its journal) was deleted`),
    );
    expect(a.lines).toContainEqual(expect.stringContaining(`WARN data folder ${dbPath} recreated`));
    expect(fs.statSync(dbPath).mode & 0o777).toBe(0o700);
    await coll.insertOne({ _id: 3 });
    await a.stop();
    expect(await storedAfterRestart(dbPath)).toEqual([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
  });

  it('notices a deleted folder without writes, and refuses writes while it cannot be recreated', async () => {
    const dbPath = tempDir();
    const a = await run({ dbPath, ttlIntervalMs: 50 });
    const coll = a.client.db('app').collection<{ _id: number }>('c');
    await coll.insertOne({ _id: 1 });
    // Something else takes the folder's place: it cannot be recreated.
    fs.rmSync(dbPath, { recursive: true });
    fs.writeFileSync(dbPath, '');
    await new Promise((r) => setTimeout(r, 300));
    expect(a.lines.filter((l) => l.includes('writes refused'))).toEqual([
      expect.stringContaining(`WARN disk error: writes refused until the disk works again (path ${dbPath}`),
    ]);
    await expect(coll.insertOne({ _id: 2 })).rejects.toThrow(/cannot use data folder/);
    expect(await coll.find().toArray()).toEqual([{ _id: 1 }]);
    // Once the way is clear the housekeeping tick recreates it, and writes are accepted again.
    fs.rmSync(dbPath);
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.existsSync(path.join(dbPath, 'snapshot.bin'))).toBe(true);
    expect(a.lines).toContain('WARN disk: the data folder is writable again; writes are accepted');
    await coll.insertOne({ _id: 3 });
    await a.stop();
    expect(await storedAfterRestart(dbPath)).toEqual([{ _id: 1 }, { _id: 3 }]);
  });
});
