// Round trips through the driver against several trees of this package at once, each server in its
// own process, driven in alternating blocks from one client so the machine's load hits all alike
// (a lone `npm run bench` on a busy 2-core machine varies by more than the differences sought):
//
//   git archive <commit> packages/embedded-mongo | tar -x -C /tmp/before   (and ln -s node_modules)
//   npx tsx packages/embedded-mongo/bench/compare.ts before=/tmp/before now=.
//
// Prints each tree's p50 of indexed findOne, updateOne by _id and insertOne relative to the first,
// and the CPU per operation of the client (this process) and of the server (its schedstat).
// ROUNDS blocks of BLOCK operations each; DOCS documents with a unique index.
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Collection, MongoClient, type ObjectId } from 'mongodb';
import { loanDocument } from './loan-document';

const DOCS = Number(process.env.DOCS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 12);
const BLOCK = Number(process.env.BLOCK ?? 500);
const OPS = ['find', 'update', 'insert'] as const;
type Op = (typeof OPS)[number];

interface Server {
  name: string;
  proc: ChildProcess;
  client: MongoClient;
  coll: Collection;
  ids: ObjectId[];
  next: number;
  dbPath: string;
  latency: Record<Op, number[]>;
  clientCpu: Record<Op, number[]>;
  serverCpu: Record<Op, number[]>;
}

function start(dir: string, dbPath: string): Promise<{ proc: ChildProcess; uri: string }> {
  return new Promise((resolve, reject) => {
    const bin = path.resolve(dir, 'packages/embedded-mongo/bin/embedded-mongo.ts');
    const args = ['--import', 'tsx', bin, '--port', '0', '--dbpath', dbPath, '--replset', 'rs0'];
    const proc = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+) /.exec(out);
      if (m) resolve({ proc, uri: m[1] });
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const empty = (): Record<Op, number[]> => ({ find: [], update: [], insert: [] });
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
// The server's main thread's CPU time (ns precision) from the scheduler's statistics.
const serverCpu = (s: Server) =>
  Number(fs.readFileSync(`/proc/${s.proc.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e3;

async function setUp(name: string, dir: string): Promise<Server> {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-compare-'));
  const { proc, uri } = await start(dir, dbPath);
  const client = await MongoClient.connect(uri);
  const coll = client.db('bench').collection('loans');
  await coll.createIndex({ email: 1 }, { unique: true });
  const ids: ObjectId[] = [];
  for (let s = 0; s < DOCS; s += 1000) {
    const docs = Array.from({ length: 1000 }, (_, k) => loanDocument(s + k));
    for (const d of docs) ids.push(d._id);
    await coll.insertMany(docs);
  }
  return {
    name,
    proc,
    client,
    coll,
    ids,
    next: DOCS * 10,
    dbPath,
    latency: empty(),
    clientCpu: empty(),
    serverCpu: empty(),
  };
}

function operation(s: Server, op: Op, i: number): Promise<unknown> {
  if (op === 'find') return s.coll.findOne({ email: `user${(i * 104729) % DOCS}@example.com` });
  if (op === 'update')
    return s.coll.updateOne({ _id: s.ids[(i * 15485863) % DOCS] }, { $inc: { loanAmount: 1 } });
  return s.coll.insertOne(loanDocument(s.next++));
}

async function block(s: Server, op: Op, from: number, record: boolean): Promise<void> {
  const c0 = cpu();
  const s0 = serverCpu(s);
  for (let i = 0; i < BLOCK; i++) {
    const t0 = process.hrtime.bigint();
    await operation(s, op, from + i);
    if (record) s.latency[op].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  if (!record) return;
  s.clientCpu[op].push((cpu() - c0) / BLOCK);
  s.serverCpu[op].push((serverCpu(s) - s0) / BLOCK);
}

async function main(): Promise<void> {
  const servers: Server[] = [];
  for (const arg of process.argv.slice(2)) {
    const [name, dir] = arg.split('=');
    servers.push(await setUp(name, dir));
  }
  try {
    for (const s of servers) for (const op of OPS) await block(s, op, 0, false); // warm-up
    for (let r = 0; r < ROUNDS; r++)
      for (const s of r % 2 ? [...servers].reverse() : servers)
        for (const op of OPS) await block(s, op, (r + 1) * BLOCK, true);
    const first = servers[0];
    console.log(`p50 ms (vs ${first.name}), client / server CPU µs per operation; ${ROUNDS} × ${BLOCK} each`);
    for (const s of servers) {
      const cells = OPS.map((op) => {
        const p50 = median(s.latency[op]);
        const rel = ((p50 / median(first.latency[op]) - 1) * 100).toFixed(0);
        return `${op} ${p50.toFixed(3)} (${rel}%) ${median(s.clientCpu[op]).toFixed(0)}/${median(s.serverCpu[op]).toFixed(0)}`;
      });
      console.log(`  ${s.name.padEnd(8)} ${cells.join('   ')}`);
    }
  } finally {
    for (const s of servers) {
      await s.client.close();
      await new Promise<void>((resolve) => {
        s.proc.removeAllListeners('exit');
        s.proc.once('exit', () => resolve());
        s.proc.kill('SIGTERM');
      });
      fs.rmSync(s.dbPath, { recursive: true, force: true });
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
