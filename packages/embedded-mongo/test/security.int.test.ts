// The data files and the wire are guarded: data file modes, connection and message limits,
// back-pressure on replies, and names sent by clients never resolving to inherited object members.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { BSON, Document, MongoClient, MongoServerError } from 'mongodb';
import { EmbeddedMongo, EmbeddedMongoOptions, startEmbeddedMongo } from '../src';
import { DEFAULT_MAX_CONNECTIONS } from '../src/server';
import { opMsg } from './op-msg';
import { temporaryFolders, usingRealMongo } from './support';

// Properties of the embedded server itself; a real MongoDB is not under test here.
const suite = usingRealMongo ? describe.skip : describe;

const tempDir = temporaryFolders('embedded-mongo-modes-');
const servers: EmbeddedMongo[] = [];
const clients: MongoClient[] = [];
const sockets: net.Socket[] = [];

async function start(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const server = await startEmbeddedMongo({ port: 0, ...options });
  servers.push(server);
  return server;
}

async function connect(server: EmbeddedMongo): Promise<MongoClient> {
  const client = await MongoClient.connect(server.uri);
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.stop();
});

/** A raw client: sends OP_MSG commands and reads their replies, or sees the server hang up. */
class RawClient {
  private buffered = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;
  readonly socket: net.Socket;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    sockets.push(this.socket);
    this.socket.on('data', (d) => {
      this.buffered = Buffer.concat([this.buffered, d]);
      this.wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    this.socket.on('error', () => undefined);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private async until(ready: () => boolean): Promise<void> {
    while (!ready()) await new Promise<void>((r) => this.waiters.push(r));
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** The next reply, or undefined if the server hung up first. */
  async reply(): Promise<Document | undefined> {
    const whole = () => this.buffered.length >= 4 && this.buffered.length >= this.buffered.readInt32LE(0);
    await this.until(() => whole() || this.closed);
    if (!whole()) return undefined;
    const length = this.buffered.readInt32LE(0);
    const doc = BSON.deserialize(this.buffered.subarray(21, length));
    this.buffered = this.buffered.subarray(length);
    return doc;
  }

  async command(doc: Document): Promise<Document | undefined> {
    this.send(opMsg({ ...doc, $db: 'admin' }));
    return this.reply();
  }

  async hangUp(): Promise<void> {
    await this.until(() => this.closed);
  }
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

suite('data files', () => {
  it('creates the data directory 0700 and every file 0600, snapshot included', async () => {
    const root = tempDir();
    const dbPath = path.join(root, 'db');
    // A tiny compaction threshold so that the snapshot is written too.
    const server = await start({ dbPath, compactBytes: 4096 });
    const client = await connect(server);
    const coll = client.db('modes').collection('users');
    for (let i = 0; i < 20; i++) await coll.insertOne({ i, passwordHash: 'scrypt$'.padEnd(300, 'x') });
    expect(modeOf(dbPath)).toBe(0o700);
    for (const name of ['journal.wal', 'snapshot.bin', 'mongod.lock'])
      expect([name, modeOf(path.join(dbPath, name))]).toEqual([name, 0o600]);
  });

  it('tightens the modes of a directory and files left world-readable by an older version', async () => {
    const dbPath = tempDir();
    const first = await start({ dbPath, compactBytes: 4096 });
    const client = await connect(first);
    for (let i = 0; i < 20; i++)
      await client
        .db('modes')
        .collection('users')
        .insertOne({ i, pad: 'x'.repeat(300) });
    await client.close();
    await first.stop();
    fs.chmodSync(dbPath, 0o755);
    for (const name of ['journal.wal', 'snapshot.bin']) fs.chmodSync(path.join(dbPath, name), 0o644);
    fs.writeFileSync(path.join(dbPath, 'snapshot.tmp'), 'left by a crash', { mode: 0o644 });

    const second = await start({ dbPath });
    expect(modeOf(dbPath)).toBe(0o700);
    for (const name of ['journal.wal', 'snapshot.bin', 'snapshot.tmp', 'mongod.lock'])
      expect([name, modeOf(path.join(dbPath, name))]).toEqual([name, 0o600]);
    const again = await connect(second);
    expect(await again.db('modes').collection('users').countDocuments()).toBe(20);
  });
});

suite('connection limit', () => {
  it('closes connection N+1 at once while the first N keep working', async () => {
    const server = await start({ maxConnections: 3 });
    const open: RawClient[] = [];
    for (let i = 0; i < 3; i++) {
      const c = new RawClient(server.port);
      await c.connected();
      expect(await c.command({ ping: 1 })).toMatchObject({ ok: 1 });
      open.push(c);
    }
    const refused = new RawClient(server.port);
    await refused.hangUp();
    expect(await refused.command({ ping: 1 })).toBeUndefined();
    // The earlier connections are untouched...
    expect(await open[0].command({ ping: 1 })).toMatchObject({ ok: 1 });
    // ...and a closed one frees its place.
    open[2].socket.destroy();
    await open[2].hangUp();
    const next = new RawClient(server.port);
    await next.connected();
    let reply = await next.command({ ping: 1 });
    for (let i = 0; reply === undefined && i < 50; i++) {
      // The server may see the close a moment after the client does.
      await new Promise((r) => setTimeout(r, 20));
      const retry = new RawClient(server.port);
      await retry.connected();
      reply = await retry.command({ ping: 1 });
    }
    expect(reply).toMatchObject({ ok: 1 });
  });

  it('defaults to 1,000 connections and refuses a bad setting', async () => {
    expect(DEFAULT_MAX_CONNECTIONS).toBe(1000);
    await expect(startEmbeddedMongo({ port: 0, maxConnections: 0 })).rejects.toThrow(/maxConnections/);
  });
});

suite('message size limit', () => {
  it('hangs up on a header announcing more than 48,000,000 bytes, or fewer than 16', async () => {
    const server = await start();
    for (const length of [48_000_001, 2_000_000_000, 15, -5]) {
      const c = new RawClient(server.port);
      await c.connected();
      const header = Buffer.alloc(16);
      header.writeInt32LE(length, 0);
      header.writeInt32LE(2013, 12);
      c.send(header);
      await c.hangUp();
    }
    const client = await connect(server);
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('honours a configured limit and advertises it in hello', async () => {
    const limit = 16 * 1024 * 1024 + 16 * 1024;
    const server = await start({ maxMessageSizeBytes: limit });
    const c = new RawClient(server.port);
    await c.connected();
    expect(await c.command({ hello: 1 })).toMatchObject({ maxMessageSizeBytes: limit });
    const header = Buffer.alloc(16);
    header.writeInt32LE(limit + 1, 0);
    header.writeInt32LE(2013, 12);
    c.send(header);
    await c.hangUp();
    await expect(startEmbeddedMongo({ port: 0, maxMessageSizeBytes: 1000 })).rejects.toThrow(
      /maxMessageSizeBytes/,
    );
  });

  it('stops reading from a client that pipelines commands without reading the replies', async () => {
    const server = await start();
    const client = await connect(server);
    const coll = client.db('pressure').collection('c');
    await coll.insertOne({ _id: 1 as never, n: 0, big: 'x'.repeat(1024 * 1024) });
    const raw = new RawClient(server.port);
    await raw.connected();
    raw.socket.pause(); // never reads: replies pile up on the server side unless it stops
    const total = 200;
    const update = { findAndModify: 'c', query: { _id: 1 }, update: { $inc: { n: 1 } }, new: true };
    raw.send(
      Buffer.concat(Array.from({ length: total }, (_, i) => opMsg({ ...update, $db: 'pressure' }, i + 1))),
    );
    // Wait until the count stops moving: the socket buffers are full and the server waits.
    let last = -1;
    let n = 0;
    while (n !== last) {
      last = n;
      await new Promise((r) => setTimeout(r, 200));
      n = ((await coll.findOne({ _id: 1 as never }, { projection: { n: 1 } })) as unknown as { n: number }).n;
    }
    // Without back-pressure all 200 run at once and ~200 MiB of replies wait in memory.
    expect(n).toBeLessThan(total / 2);
    raw.socket.resume();
    for (let i = 0; i < total; i++) expect(await raw.reply()).toMatchObject({ ok: 1 });
    expect(await coll.findOne({ _id: 1 as never }, { projection: { n: 1 } })).toEqual({ _id: 1, n: total });
  });
});

suite('names sent by clients never resolve to inherited object members', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;

  beforeEach(async () => {
    server = await start({ replSet: 'rs0' });
    client = await connect(server);
  });

  afterEach(() => {
    // Whatever the server did must not have reached the prototype every object shares.
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeMembers);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  const prototypeMembers = Object.getOwnPropertyNames(Object.prototype).sort();

  it.each(['constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'isPrototypeOf'])(
    'answers the command %s with CommandNotFound and keeps serving',
    async (name) => {
      const err = await client
        .db('admin')
        .command({ [name]: 1 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MongoServerError);
      expect(err).toMatchObject({ code: 59, codeName: 'CommandNotFound' });
      expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    },
  );

  it('answers a __proto__ command with CommandNotFound', async () => {
    const raw = new RawClient(server.port);
    await raw.connected();
    // JSON.parse makes __proto__ an own key, which BSON then sends as the command name.
    const reply = await raw.command(JSON.parse('{"__proto__": {"ping": 1}}') as Document);
    expect(reply).toMatchObject({ ok: 0, code: 59, codeName: 'CommandNotFound' });
    expect(await raw.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('getParameter does not answer with inherited members', async () => {
    const reply = await client.db('admin').command({ getParameter: 1, constructor: 1, toString: 1 });
    // operationTime / $clusterTime are on every replica-set reply (as on MongoDB).
    const own = Object.keys(reply).filter((k) => k !== 'operationTime' && k !== '$clusterTime');
    expect(own).toEqual(['ok']);
  });

  it('updates through __proto__ paths write an ordinary field, never Object.prototype', async () => {
    const coll = client.db('proto').collection('c');
    await coll.insertOne({ _id: 1 as never, a: 1 });
    await coll.updateOne({ _id: 1 as never }, { $set: { '__proto__.polluted': 'yes' } });
    await coll.updateOne({ _id: 1 as never }, { $unset: { '__proto__.toString': '' } });
    await coll.updateOne({ _id: 1 as never }, { $rename: { a: '__proto__.renamed' } });
    await coll.updateOne(
      { _id: 2 as never, '__proto__.seeded': 1 } as never,
      { $set: { b: 1 } },
      { upsert: true },
    );
    const one = await coll.findOne({ _id: 1 as never });
    expect(Object.hasOwn(one!, '__proto__')).toBe(true);
    expect(one!['__proto__']).toEqual({ polluted: 'yes', renamed: 1 });
    const two = await coll.findOne({ _id: 2 as never });
    expect(two!['__proto__']).toEqual({ seeded: 1 });
    expect(await coll.countDocuments({ '__proto__.polluted': 'yes' })).toBe(1);
  });

  it('stores a __proto__ field of an inserted or replacing document as a field', async () => {
    const coll = client.db('proto').collection('c');
    await coll.insertOne(JSON.parse('{"_id": 1, "__proto__": {"x": 1}}'));
    expect(Object.hasOwn((await coll.findOne({ _id: 1 as never }))!, '__proto__')).toBe(true);
    await coll.replaceOne({ _id: 1 as never }, JSON.parse('{"__proto__": {"y": 2}, "a": 1}'));
    const doc = await coll.findOne({ _id: 1 as never });
    expect(doc!['__proto__']).toEqual({ y: 2 });
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
  });

  it('projections on __proto__ paths do not write to Object.prototype', async () => {
    const coll = client.db('proto').collection('c');
    await coll.insertOne({ _id: 1 as never, a: 1 });
    expect(await coll.find({}, { projection: { '__proto__.polluted': 1 } }).toArray()).toEqual([{ _id: 1 }]);
    expect(await coll.find({}, { projection: { '__proto__.polluted': 0 } }).toArray()).toEqual([
      { _id: 1, a: 1 },
    ]);
  });

  it('filters, sorts, indexes and pipelines do not see inherited members as fields', async () => {
    const coll = client.db('proto').collection('c');
    await coll.createIndex({ constructor: 1 }, { unique: true, sparse: true });
    // Both lack the field, so the sparse unique index skips both (no duplicate key).
    await coll.insertMany([
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
    ] as never[]);
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect([name, await coll.countDocuments({ [name]: { $exists: true } })]).toEqual([name, 0]);
    expect(await coll.countDocuments({ 'a.constructor': { $exists: true } })).toBe(0);
    expect(await coll.aggregate([{ $group: { _id: '$constructor', n: { $sum: 1 } } }]).toArray()).toEqual([
      { _id: null, n: 2 },
    ]);
    expect(await coll.aggregate([{ $unwind: '$constructor' }]).toArray()).toEqual([]);
    expect(
      await coll
        .find({})
        .sort({ constructor: 1, _id: -1 } as never)
        .toArray(),
    ).toEqual([
      { _id: 2, a: 2 },
      { _id: 1, a: 1 },
    ]);
  });
});
