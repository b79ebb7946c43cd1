// Backup and restore of the platform's MongoDB data in mongodump's folder layout
// (<out>/<database>/<collection>.bson + <collection>.metadata.json), so `mongorestore` can read a
// backup of the embedded server and these scripts can read a `mongodump` of a real one.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import mongodb from 'mongodb';
import { ROOT } from './bootstrap.mjs';
import { freePort } from './ports.mjs';

const { BSON, MongoClient } = mongodb;
const { EJSON } = BSON;

/** MongoDB's own databases: never backed up or restored. */
const SYSTEM_DATABASES = new Set(['admin', 'local', 'config']);
const INSERT_BATCH = 1000;

/**
 * Copies every document and index of every database, all read inside one snapshot transaction so the
 * backup is consistent across collections while the services keep writing. (On a real replica set a
 * transaction lives at most 60 s: for large data sets use `mongodump --oplog` instead.)
 * @returns {Promise<{databases: number, collections: number, documents: number}>}
 */
export async function backup(uri, outDir) {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const totals = { databases: 0, collections: 0, documents: 0 };
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    const plan = [];
    for (const { name } of databases) {
      if (SYSTEM_DATABASES.has(name)) continue;
      const collections = await client.db(name).listCollections({}, { nameOnly: false }).toArray();
      for (const c of collections) {
        if (c.type && c.type !== 'collection') continue;
        const indexes = await client.db(name).collection(c.name).indexes();
        plan.push({ db: name, collection: c.name, options: c.options ?? {}, indexes });
      }
    }
    const session = client.startSession();
    try {
      session.startTransaction({ readConcern: { level: 'snapshot' } });
      for (const item of plan) {
        const dir = path.join(outDir, item.db);
        mkdirSync(dir, { recursive: true });
        // raw: the server's BSON bytes as they are, so Int32, Long, Decimal128 and dates survive exactly.
        const cursor = client.db(item.db).collection(item.collection).find({}, { session, raw: true });
        const chunks = [];
        for await (const doc of cursor) chunks.push(Buffer.from(doc));
        writeFileSync(path.join(dir, `${item.collection}.bson`), Buffer.concat(chunks), { mode: 0o600 });
        const metadata = {
          indexes: item.indexes,
          options: item.options,
          collectionName: item.collection,
          type: 'collection',
        };
        writeFileSync(
          path.join(dir, `${item.collection}.metadata.json`),
          EJSON.stringify(metadata, { relaxed: false }),
          { mode: 0o600 },
        );
        totals.collections += 1;
        totals.documents += chunks.length;
      }
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    totals.databases = new Set(plan.map((p) => p.db)).size;
    return totals;
  } finally {
    await client.close();
  }
}

/** The documents of one `.bson` file: BSON documents back to back, each starting with its length. */
export function readBsonFile(file) {
  const bytes = readFileSync(file);
  const docs = [];
  for (let offset = 0; offset < bytes.length;) {
    const size = bytes.readInt32LE(offset);
    if (size < 5 || offset + size > bytes.length)
      throw new Error(`${file}: truncated document at byte ${offset}`);
    // promoteValues off: Int32 and Double stay what they were instead of both becoming numbers.
    docs.push(BSON.deserialize(bytes.subarray(offset, offset + size), { promoteValues: false }));
    offset += size;
  }
  return docs;
}

/**
 * Loads a backup into the server at `uri`. Refuses to touch a collection that already holds documents
 * unless `drop` is set, so a restore can never silently mix two data sets.
 */
export async function restore(uri, fromDir, { drop = false } = {}) {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const totals = { databases: 0, collections: 0, documents: 0 };
  try {
    const dbs = readdirSync(fromDir, { withFileTypes: true }).filter(
      (d) => d.isDirectory() && !SYSTEM_DATABASES.has(d.name),
    );
    for (const dbEntry of dbs) {
      const db = client.db(dbEntry.name);
      const dbDir = path.join(fromDir, dbEntry.name);
      for (const file of readdirSync(dbDir).filter((f) => f.endsWith('.bson'))) {
        const name = file.slice(0, -'.bson'.length);
        const metadata = EJSON.parse(readFileSync(path.join(dbDir, `${name}.metadata.json`), 'utf8'), {
          relaxed: false,
        });
        const collection = db.collection(name);
        const existing = await collection.estimatedDocumentCount();
        if (existing > 0 && !drop)
          throw new Error(
            `${dbEntry.name}.${name} already holds ${existing} documents: restore into an empty database, or pass --drop`,
          );
        if (drop) await collection.drop().catch(() => undefined);
        const docs = readBsonFile(path.join(dbDir, file));
        for (let i = 0; i < docs.length; i += INSERT_BATCH)
          await collection.insertMany(docs.slice(i, i + INSERT_BATCH), { ordered: true });
        if (docs.length === 0) await db.createCollection(name).catch(() => undefined);
        const indexes = (metadata.indexes ?? []).filter((ix) => ix.name !== '_id_');
        if (indexes.length > 0)
          await collection.createIndexes(indexes.map(({ v: _version, ns: _ns, ...spec }) => spec));
        totals.collections += 1;
        totals.documents += docs.length;
      }
      totals.databases += 1;
    }
    return totals;
  } finally {
    await client.close();
  }
}

/** Starts the embedded server on a data folder for the duration of `work` (for restores into a fresh folder). */
export async function withEmbeddedMongo(dbPath, work) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/embedded-mongo/bin/embedded-mongo.ts',
      '--port',
      String(port),
      '--dbpath',
      dbPath,
      '--replset',
      'rs0',
      '--fsync',
      'always',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => (output += d));
  const ready = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 30000);
    child.stdout.on('data', () => {
      if (/listening on/.test(output)) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  try {
    if (!ready) throw new Error(`the embedded MongoDB did not start on ${dbPath}:\n${output.trim()}`);
    return await work(`mongodb://127.0.0.1:${port}/?replicaSet=rs0&directConnection=true`);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}
