// Benchmark over loopback through the real driver, with the server in its own process:
// inserts/s (single and batched), indexed findOne p50/p99 and update-by-id p50 on a
// 100,000-document collection, then start-up time with those documents journaled.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type ObjectId } from 'mongodb';
import { loanDocument } from './loan-document';
import { percentile, startServer, stopServer, timeEach } from './server-process';

const DOCS = 100_000;
const BATCH = 1_000;
const SINGLE = 5_000;
const LOOKUPS = 5_000;

async function main(): Promise<void> {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-bench-'));
  const results: [string, string][] = [];
  try {
    let server = await startServer(dbPath);
    let client = await MongoClient.connect(server.uri);
    const coll = client.db('bench').collection('loans');
    await coll.createIndex({ email: 1 }, { unique: true });

    const singleMs = (await timeEach(SINGLE, (i) => coll.insertOne(loanDocument(DOCS + i)))).reduce(
      (a, b) => a + b,
      0,
    );
    results.push(['single inserts/s', Math.round(SINGLE / (singleMs / 1000)).toLocaleString('en-GB')]);
    await coll.deleteMany({});

    const ids: ObjectId[] = [];
    const t0 = process.hrtime.bigint();
    for (let start = 0; start < DOCS; start += BATCH) {
      const docs = Array.from({ length: BATCH }, (_, k) => loanDocument(start + k));
      for (const d of docs) ids.push(d._id);
      await coll.insertMany(docs, { ordered: true });
    }
    const batchedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    results.push([
      `batched inserts/s (${BATCH} per insertMany)`,
      Math.round(DOCS / (batchedMs / 1000)).toLocaleString('en-GB'),
    ]);

    // Warm the connection pool and JIT before timing point queries.
    await timeEach(500, (i) => coll.findOne({ email: `user${(i * 7919) % DOCS}@example.com` }));
    const finds = await timeEach(LOOKUPS, (i) =>
      coll.findOne({ email: `user${(i * 104729) % DOCS}@example.com` }),
    );
    results.push(['indexed findOne p50 (ms)', percentile(finds, 50).toFixed(3)]);
    results.push(['indexed findOne p99 (ms)', percentile(finds, 99).toFixed(3)]);

    const updates = await timeEach(LOOKUPS, (i) =>
      coll.updateOne({ _id: ids[(i * 15485863) % DOCS] }, { $inc: { loanAmount: 1 } }),
    );
    results.push(['update by _id p50 (ms)', percentile(updates, 50).toFixed(3)]);
    results.push(['update by _id p99 (ms)', percentile(updates, 99).toFixed(3)]);

    const count = await coll.countDocuments();
    await client.close();
    await stopServer(server);
    const journalBytes = fs.statSync(path.join(dbPath, 'journal.wal')).size;

    server = await startServer(dbPath);
    client = await MongoClient.connect(server.uri);
    const recovered = await client.db('bench').collection('loans').countDocuments();
    results.push([
      `start-up with ${count.toLocaleString('en-GB')} documents journaled (${(journalBytes / 1048576).toFixed(1)} MiB): recovery (ms)`,
      String(server.readyMs),
    ]);
    results.push(['start-up: process spawn to ready, incl. tsx (ms)', server.spawnToReadyMs.toFixed(0)]);
    if (recovered !== count) throw new Error(`recovered ${recovered} documents, expected ${count}`);
    await client.close();
    await stopServer(server);
  } finally {
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
  const width = Math.max(...results.map(([k]) => k.length));
  console.log('embedded-mongo benchmark (server in a child process, loopback, mongodb driver)');
  for (const [k, v] of results) console.log(`  ${k.padEnd(width)}  ${v}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
