// The embedded MongoDB at size: documents shaped like the platform's (saved searches with their
// stored runs, DIPs, outbox entries, with the services' indexes) at each size of
// EMBEDDED_MONGO_SIZES (default 10000,1000000). For each: insert rate, resident memory, journal on
// disk and after compaction, start-up time (loading the data folder), and p50/p99 of the services'
// own queries. Server in a child process, as `npm start` runs it, through the real driver.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Db, MongoClient, ObjectId } from 'mongodb';
import { Child, percentile, startServer, stopServer, timeEach } from './server-process';

const SIZES = (process.env.EMBEDDED_MONGO_SIZES ?? '10000,1000000').split(',').map(Number);
const BATCH = 1_000;
const SINGLE = 2_000;
const QUERIES = 300;
const DAY = 24 * 3600 * 1000;
const EPOCH = Date.UTC(2026, 0, 1);

/** The server process's resident memory (Linux), in MiB. */
function rssMiB(child: Child): number {
  const status = fs.readFileSync(`/proc/${child.proc.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/**
 * The server process's CPU time so far (user + system, Linux), in ms: on a shared machine the
 * wall-clock figures follow the load, CPU per operation much less.
 */
function cpuMs(child: Child): number {
  const fields = fs.readFileSync(`/proc/${child.proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function diskMiB(dbPath: string): { journal: number; snapshot: number } {
  const size = (f: string) =>
    fs.existsSync(path.join(dbPath, f)) ? fs.statSync(path.join(dbPath, f)).size : 0;
  return { journal: size('journal.wal') / 1048576, snapshot: size('snapshot.bin') / 1048576 };
}

// Mixed documents: half saved searches (each with its stored run), 30% DIPs, 20% outbox entries.
function savedSearch(i: number, users: number) {
  return {
    _id: new ObjectId(),
    user_id: `user-${i % users}`,
    created_at: new Date(EPOCH + i * 1000),
    name: `Bridging ${i}`,
    criteria: {
      loanAmount: 100_000 + (i % 900) * 1_000,
      propertyValue: 400_000,
      ltv: 0.6,
      type: 'bridging',
      term: 12,
    },
    run: {
      ranAt: new Date(EPOCH + i * 1000),
      results: Array.from({ length: 5 }, (_, k) => ({
        lenderId: `lender-${(i + k) % 40}`,
        productId: `product-${(i + k) % 400}`,
        rate: 0.0075 + k * 0.001,
        fees: 1_995 + k * 100,
        monthly: 850 + k * 10,
      })),
    },
  };
}

function dip(i: number, users: number) {
  return {
    _id: new ObjectId(),
    quoteCode: `Q${String(i).padStart(9, '0')}`,
    userId: `user-${i % users}`,
    createdAt: new Date(EPOCH + i * 1000),
    expiresAt: new Date(EPOCH + i * 1000 + 30 * DAY),
    status: 'issued',
    snapshot: {
      lenderId: `lender-${i % 40}`,
      productId: `product-${i % 400}`,
      loanAmount: 250_000 + (i % 500) * 1_000,
      rate: 0.0085,
      termMonths: 12,
      fees: { arrangement: 2_500, valuation: 650 },
    },
  };
}

function outboxEntry(i: number) {
  return {
    _id: new ObjectId(),
    topic: 'dip.events',
    key: `dip-${i}`,
    type: 'DipIssued',
    payload: { dipId: `dip-${i}`, userId: `user-${i % 997}`, at: new Date(EPOCH + i * 1000).toISOString() },
    createdAt: new Date(EPOCH + i * 1000),
    publishedAt: null as Date | null,
  };
}

async function ensureIndexes(db: Db): Promise<void> {
  await db.collection('saved_searches').createIndex({ user_id: 1, created_at: -1 });
  await db.collection('saved_searches').createIndex({ created_at: 1 });
  const dips = db.collection('online_dips');
  await dips.createIndex({ quoteCode: 1 }, { unique: true, name: 'quote_code_unique' });
  await dips.createIndex({ userId: 1, createdAt: -1 }, { name: 'user_newest_first' });
  await dips.createIndex(
    { 'snapshot.lenderId': 1, 'snapshot.productId': 1, expiresAt: 1 },
    { name: 'issued_product' },
  );
  await db
    .collection('outbox')
    .createIndex({ publishedAt: 1 }, { name: 'published_ttl', expireAfterSeconds: 7 * 24 * 3600 });
}

/** The services' own reads, each timed QUERIES times: name → p50, p99 (ms), server CPU (ms) per query. */
async function timeQueries(
  server: Child,
  db: Db,
  size: number,
  users: number,
): Promise<Array<[string, number, number, number]>> {
  const searches = db.collection('saved_searches');
  const dips = db.collection('online_dips');
  const outbox = db.collection('outbox');
  const nSearches = Math.floor(size / 2);
  const nDips = Math.floor((size * 3) / 10);
  const queries: Array<[string, (i: number) => Promise<unknown>]> = [
    [
      "a user's 20 newest saved searches",
      (i) =>
        searches
          .find({ user_id: `user-${(i * 7919) % users}` })
          .sort({ created_at: -1 })
          .limit(20)
          .toArray(),
    ],
    [
      're-pricing window: 100 searches saved in an hour, by _id',
      (i) => {
        const from = EPOCH + ((i * 104_729) % Math.max(1, nSearches - 3600)) * 1000;
        return searches
          .find({ created_at: { $gte: new Date(from), $lt: new Date(from + 3600_000) } })
          .sort({ _id: 1 })
          .limit(100)
          .toArray();
      },
    ],
    [
      "a user's 20 newest DIPs",
      (i) =>
        dips
          .find({ userId: `user-${(i * 7919) % users}` })
          .sort({ createdAt: -1 })
          .limit(20)
          .toArray(),
    ],
    [
      'a DIP by quote code',
      (i) => dips.findOne({ quoteCode: `Q${String((i * 15_485_863) % nDips).padStart(9, '0')}` }),
    ],
    [
      "a product's DIPs still open (panel change)",
      (i) =>
        dips
          .find({
            'snapshot.lenderId': `lender-${i % 40}`,
            'snapshot.productId': `product-${i % 400}`,
            expiresAt: { $gt: new Date(EPOCH + Math.floor(nDips * 0.9) * 1000) },
          })
          .toArray(),
    ],
    [
      'outbox relay: 100 unpublished entries by _id',
      () => outbox.find({ publishedAt: null }).sort({ _id: 1 }).limit(100).toArray(),
    ],
  ];
  const out: Array<[string, number, number, number]> = [];
  for (const [name, run] of queries) {
    await timeEach(20, run); // builds the ordered entries a walk needs, warms the JIT
    const cpu0 = cpuMs(server);
    const times = await timeEach(QUERIES, run);
    out.push([name, percentile(times, 50), percentile(times, 99), (cpuMs(server) - cpu0) / QUERIES]);
  }
  return out;
}

async function measure(size: number): Promise<void> {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-size-'));
  const users = Math.max(10, Math.floor(size / 50));
  // Printed as measured, so a size that does not finish still leaves its figures.
  const add = (k: string, v: string) => console.log(`  ${k.padEnd(66)} ${v}`);
  try {
    // A journal that is never compacted while loading: its size is that of every write.
    let server = await startServer(dbPath, { compactBytes: 1024 ** 4 });
    let client = await MongoClient.connect(server.uri);
    let db = client.db('bench');
    await ensureIndexes(db);
    const makers: Array<[string, number, (i: number) => object]> = [
      ['saved_searches', Math.floor(size / 2), (i) => savedSearch(i, users)],
      ['online_dips', Math.floor((size * 3) / 10), (i) => dip(i, users)],
      ['outbox', size - Math.floor(size / 2) - Math.floor((size * 3) / 10), outboxEntry],
    ];
    const t0 = process.hrtime.bigint();
    const loadCpu0 = cpuMs(server);
    for (const [name, n, make] of makers) {
      const coll = db.collection(name);
      for (let start = 0; start < n; start += BATCH)
        await coll.insertMany(
          Array.from({ length: Math.min(BATCH, n - start) }, (_, k) => make(start + k)) as never[],
        );
    }
    const loadS = Number(process.hrtime.bigint() - t0) / 1e9;
    const loadCpu = cpuMs(server) - loadCpu0;
    add(
      `batched inserts/s (${BATCH} per insertMany, 6 indexes)`,
      Math.round(size / loadS).toLocaleString('en-GB'),
    );
    add('  server CPU per 1,000 documents inserted (ms)', ((loadCpu / size) * 1000).toFixed(0));
    // The relay publishes: all but the newest 500 outbox entries get publishedAt.
    const outbox = db.collection('outbox');
    const pending = await outbox
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray();
    const published = pending.slice(0, Math.max(0, pending.length - 500)).map((d) => d._id);
    for (let i = 0; i < published.length; i += BATCH)
      await outbox.updateMany(
        { _id: { $in: published.slice(i, i + BATCH) } },
        { $set: { publishedAt: new Date() } },
      );

    for (const [name, p50, p99, cpu] of await timeQueries(server, db, size, users))
      add(`${name}: p50 / p99 (ms), server CPU`, `${p50.toFixed(2)} / ${p99.toFixed(2)}, ${cpu.toFixed(2)}`);
    const searches = db.collection('saved_searches');
    const singleCpu0 = cpuMs(server);
    const single = await timeEach(SINGLE, (i) => searches.insertOne(savedSearch(size + i, users)));
    const singleCpu = (cpuMs(server) - singleCpu0) / SINGLE;
    const singleS = single.reduce((a, b) => a + b, 0) / 1000;
    add(
      'single inserts/s at this size (indexes walked)',
      Math.round(SINGLE / singleS).toLocaleString('en-GB'),
    );
    add('  server CPU per single insert (ms)', singleCpu.toFixed(2));
    add('server resident memory after loading and queries (MiB)', rssMiB(server).toFixed(0));
    await client.close();
    await stopServer(server);
    const loaded = diskMiB(dbPath);
    add('journal on disk, never compacted (MiB)', loaded.journal.toFixed(1));

    // Start-up from the journal alone, then one write compacts it into a snapshot.
    server = await startServer(dbPath, { compactBytes: 1 });
    add('start-up replaying that journal (ms)', String(server.readyMs));
    add('server resident memory after that start-up (MiB)', rssMiB(server).toFixed(0));
    client = await MongoClient.connect(server.uri);
    db = client.db('bench');
    const t1 = process.hrtime.bigint();
    await db.collection('outbox').insertOne(outboxEntry(size + 1));
    add(
      'compaction (the write that triggers it, ms)',
      (Number(process.hrtime.bigint() - t1) / 1e6).toFixed(0),
    );
    const total =
      (await db.collection('saved_searches').countDocuments()) +
      (await db.collection('online_dips').countDocuments()) +
      (await db.collection('outbox').countDocuments());
    if (total !== size + SINGLE + 1)
      throw new Error(`found ${total} documents, expected ${size + SINGLE + 1}`);
    await client.close();
    await stopServer(server);
    const compacted = diskMiB(dbPath);
    add(
      'after compaction: snapshot + journal (MiB)',
      `${compacted.snapshot.toFixed(1)} + ${compacted.journal.toFixed(1)}`,
    );

    server = await startServer(dbPath, { compactBytes: 64 * 1024 * 1024 });
    add('start-up loading the snapshot (ms)', String(server.readyMs));
    add('server resident memory after that start-up (MiB)', rssMiB(server).toFixed(0));
    await stopServer(server);
  } finally {
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log('embedded-mongo at size (server in a child process, loopback, mongodb driver)');
  for (const size of SIZES) {
    const started = Date.now();
    console.log(`${size.toLocaleString('en-GB')} documents (load average ${os.loadavg()[0].toFixed(1)}):`);
    await measure(size);
    console.log(`  ${'in all (s)'.padEnd(66)} ${((Date.now() - started) / 1000).toFixed(0)}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
