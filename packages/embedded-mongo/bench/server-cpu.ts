// The server's own CPU per command, in-process and without a socket: decode the OP_MSG, run the
// command, encode the reply (process.cpuUsage around those three only, so a loaded machine's
// preemption is not counted). Several trees of this package are loaded side by side and driven in
// alternating rounds, so the same load hits each alike:
//
//   git archive <commit> packages/embedded-mongo | tar -x -C /tmp/before   (and ln -s node_modules)
//   npx tsx packages/embedded-mongo/bench/server-cpu.ts /tmp/before .
//
// The tree loaded first comes out ahead: against a copy of itself, the copy (loaded second) spent
// 5-10% more per command (26 November 2026), so run both orders, or add a copy of `before` as a
// control.
//
// Commands are shaped as the driver sends them to a replica set (lsid, txnNumber for writes, and
// the $clusterTime of the previous reply when the server sent one). DBPATH=1 journals to a temp
// folder; ONLY=find|update|insert; R rounds of N commands.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BSON, Document, Long, ObjectId, UUID } from 'bson';

const DOCS = 20_000;
const N = Number(process.env.N ?? 1000);
const R = Number(process.env.R ?? 40);

interface Tree {
  name: string;
  ids: ObjectId[];
  clusterTime?: Document;
  spent: number;
  txn: number;
  next: number;
  lsid: { id: UUID };
  results: Record<string, number[]>;
  run(cmd: Document): Document;
}

function load(dir: string): Tree {
  const src = path.resolve(dir, 'packages/embedded-mongo/src');
  const { Engine } = require(path.join(src, 'storage/engine'));
  const { runCommand } = require(path.join(src, 'commands'));
  const { buildMsg, parseMessage } = require(path.join(src, 'wire/messages'));
  let ClusterClock: (new () => unknown) | undefined;
  try {
    ClusterClock = require(path.join(src, 'commands/clock')).ClusterClock;
  } catch {
    ClusterClock = undefined; // a tree from before cluster times
  }
  const dbPath = process.env.DBPATH ? fs.mkdtempSync(path.join(os.tmpdir(), 'em-server-cpu-')) : undefined;
  if (dbPath) process.on('exit', () => fs.rmSync(dbPath, { recursive: true, force: true }));
  const engine = new Engine({ dbPath });
  engine.open();
  const state = {
    engine,
    replSet: 'rs0',
    host: '127.0.0.1',
    port: 1,
    startedAt: new Date(),
    cursors: new Map(),
    sessions: new Map(),
    nextCursorId: 1n,
    maxMessageSizeBytes: 48_000_000,
    clock: ClusterClock ? new ClusterClock() : undefined,
    clockChanges: engine.changes,
    snapshots: new Map(),
    appNames: new Map(),
    localSessions: new Map(),
  };
  const tree: Tree = {
    name: dir,
    ids: [],
    spent: 0,
    txn: 1,
    next: DOCS * 10,
    lsid: { id: new UUID() },
    results: {},
    run(cmd) {
      if (tree.clusterTime) cmd.$clusterTime = tree.clusterTime;
      const body = BSON.serialize(cmd);
      const msg = Buffer.alloc(21 + body.length);
      msg.writeInt32LE(msg.length, 0);
      msg.writeInt32LE(2013, 12);
      msg.set(body, 21);
      const before = process.cpuUsage();
      const parsed = parseMessage(msg);
      const reply = runCommand(state, parsed.command, 'admin', 1, parsed.gossiped);
      const out: Buffer = buildMsg(1, reply, false);
      const used = process.cpuUsage(before);
      tree.spent += used.user + used.system;
      const decoded = BSON.deserialize(out.subarray(21));
      if (decoded.$clusterTime) tree.clusterTime = decoded.$clusterTime;
      if (decoded.ok !== 1 || decoded.writeErrors) throw new Error(JSON.stringify(decoded));
      return decoded;
    },
  };
  tree.run({
    createIndexes: 'loans',
    indexes: [{ key: { email: 1 }, name: 'email_1', unique: true }],
    $db: 'b',
  });
  for (let s = 0; s < DOCS; s += 1000) {
    const documents = Array.from({ length: 1000 }, (_, k) => {
      const _id = new ObjectId();
      tree.ids.push(_id);
      return {
        _id,
        email: `user${s + k}@example.com`,
        name: `User ${s + k}`,
        loanAmount: 1,
        tags: ['a', 'b'],
      };
    });
    tree.run({ insert: 'loans', documents, ordered: true, $db: 'b' });
  }
  return tree;
}

const ops: Record<string, (t: Tree, i: number) => Document> = {
  find: (t, i) => ({
    find: 'loans',
    filter: { email: `user${(i * 104729) % DOCS}@example.com` },
    limit: 1,
    singleBatch: true,
    batchSize: 1,
    lsid: t.lsid,
    $db: 'b',
  }),
  update: (t, i) => ({
    update: 'loans',
    ordered: true,
    lsid: t.lsid,
    txnNumber: Long.fromNumber(t.txn++),
    $db: 'b',
    updates: [{ q: { _id: t.ids[(i * 15485863) % DOCS] }, u: { $inc: { loanAmount: 1 } } }],
  }),
  insert: (t) => ({
    insert: 'loans',
    ordered: true,
    lsid: t.lsid,
    txnNumber: Long.fromNumber(t.txn++),
    $db: 'b',
    documents: [
      { _id: new ObjectId(), email: `user${t.next++}@example.com`, name: 'x', loanAmount: 1, tags: ['a'] },
    ],
  }),
};

const trees = process.argv.slice(2).map(load);
const chosen = Object.entries(ops).filter(([k]) => !process.env.ONLY || k === process.env.ONLY);
for (let r = 0; r < R; r++) {
  for (const [k, make] of chosen) {
    for (const tree of r % 2 ? [...trees].reverse() : trees) {
      tree.spent = 0;
      for (let i = 0; i < N; i++) tree.run(make(tree, r * N + i));
      (tree.results[k] ??= []).push(tree.spent / N);
    }
  }
}
const stat = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return `${s[0].toFixed(1)} / ${s[Math.floor(s.length / 2)].toFixed(1)}`;
};
console.log('server CPU per command, µs (min / median of rounds)');
for (const t of trees)
  console.log(
    `  ${t.name}: ${Object.entries(t.results)
      .map(([k, a]) => `${k} ${stat(a)}`)
      .join('   ')}`,
  );
