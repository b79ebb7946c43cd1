import net from 'node:net';
import fc from 'fast-check';
import { BSON, Long, MongoClient } from 'mongodb';
import { EmbeddedMongo, startEmbeddedMongo } from '../src';
import { usingRealMongo } from './support';

// Robustness of the embedded server's own wire handling; a real MongoDB needs no such test.
const suite = usingRealMongo ? describe.skip : describe;

let server: EmbeddedMongo;
let client: MongoClient;

beforeAll(async () => {
  server = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
  client = await MongoClient.connect(server.uri);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

/** How long a test that expects an answer waits for it at most. */
const REPLY_WAIT_MS = 10_000;

/**
 * Sends raw bytes on a new connection and answers what came back: one whole message, or what arrived
 * before the server hung up or `waitMs` passed. A test that expects an answer waits as long as it
 * takes to come (a loaded machine may take more than a moment); one that expects none waits briefly.
 */
function sendRaw(bytes: Buffer, waitMs = 100): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (d) => {
      chunks.push(d);
      const total = Buffer.concat(chunks);
      if (total.length >= 4 && total.length >= total.readInt32LE(0)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes);
  });
}

function opMsg(body: Buffer, flags = 0, requestId = 1): Buffer {
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12);
  header.writeUInt32LE(flags, 16);
  header[20] = 0;
  return Buffer.concat([header, body]);
}

function replyDoc(reply: Buffer): Record<string, unknown> {
  return BSON.deserialize(reply.subarray(21));
}

suite('protocol', () => {
  it('answers a legacy OP_QUERY hello with an OP_REPLY', async () => {
    const query = Buffer.from(BSON.serialize({ ismaster: 1 }));
    const name = Buffer.from('admin.$cmd\0');
    const head = Buffer.alloc(20);
    const tail = Buffer.alloc(8);
    tail.writeInt32LE(0, 0);
    tail.writeInt32LE(-1, 4);
    const total = head.length + name.length + tail.length + query.length;
    head.writeInt32LE(total, 0);
    head.writeInt32LE(42, 4);
    head.writeInt32LE(2004, 12);
    const reply = await sendRaw(Buffer.concat([head, name, tail, query]), REPLY_WAIT_MS);
    expect(reply.readInt32LE(8)).toBe(42);
    expect(reply.readInt32LE(12)).toBe(1);
    expect(reply.readInt32LE(32)).toBe(1);
    expect(BSON.deserialize(reply.subarray(36))).toMatchObject({
      ismaster: true,
      setName: 'rs0',
      maxWireVersion: 21,
      ok: 1,
    });
  });

  it('verifies and returns CRC-32C checksums when the client sends them', async () => {
    const body = Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' }));
    const unsigned = opMsg(Buffer.concat([body, Buffer.alloc(4)]), 1, 9);
    unsigned.writeUInt32LE(crc32cOf(unsigned.subarray(0, unsigned.length - 4)), unsigned.length - 4);
    const reply = await sendRaw(unsigned, REPLY_WAIT_MS);
    expect(reply.readUInt32LE(16) & 1).toBe(1);
    expect(reply.readUInt32LE(reply.length - 4)).toBe(crc32cOf(reply.subarray(0, reply.length - 4)));
    expect(BSON.deserialize(reply.subarray(21, reply.length - 4))).toMatchObject({ ok: 1 });
  });

  it('does not reply when moreToCome is set but still applies the write', async () => {
    const insert = Buffer.from(
      BSON.serialize({ insert: 'quiet', documents: [{ _id: 1 }], $db: 'fuzz', writeConcern: { w: 0 } }),
    );
    const reply = await sendRaw(opMsg(insert, 2));
    expect(reply.length).toBe(0);
    expect(await client.db('fuzz').collection('quiet').countDocuments()).toBe(1);
  });
});

function crc32cOf(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0x82f63b78 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

suite('malformed input', () => {
  it('survives random byte streams', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 300 }), async (bytes) => {
        await sendRaw(Buffer.from(bytes));
      }),
      { numRuns: 60 },
    );
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
  }, 60_000);

  it('survives frames with a valid header and random bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 200 }),
        fc.constantFrom(2013, 2004, 1, 2012, 9999),
        async (body, opCode) => {
          const header = Buffer.alloc(16);
          header.writeInt32LE(16 + body.length, 0);
          header.writeInt32LE(7, 4);
          header.writeInt32LE(opCode, 12);
          await sendRaw(Buffer.concat([header, Buffer.from(body)]));
        },
      ),
      { numRuns: 80 },
    );
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
  }, 60_000);

  it('answers a truncated BSON body with an error reply and keeps serving the connection', async () => {
    const good = BSON.serialize({ ping: 1, $db: 'admin' });
    const reply = await sendRaw(opMsg(Buffer.from(good.subarray(0, good.length - 3))), REPLY_WAIT_MS);
    expect(replyDoc(reply)).toMatchObject({ ok: 0 });
    const ok = await sendRaw(opMsg(Buffer.from(good)), REPLY_WAIT_MS);
    expect(replyDoc(ok)).toMatchObject({ ok: 1 });
  });

  it('rejects a message whose checksum does not match', async () => {
    const body = Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' }));
    const msg = opMsg(Buffer.concat([body, Buffer.from([1, 2, 3, 4])]), 1);
    expect(replyDoc(await sendRaw(msg, REPLY_WAIT_MS))).toMatchObject({ ok: 0 });
  });

  it('hangs up on a client that stops mid-message without affecting others', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const full = opMsg(Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' })));
    socket.write(full.subarray(0, 10));
    socket.destroy();
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('answers odd but well-formed commands with errors, not crashes', async () => {
    const db = client.db('fuzz');
    const odd: Record<string, unknown>[] = [
      { find: 42 },
      { insert: 'c', documents: 'nope' },
      { insert: 'c', documents: [1, 2] },
      { update: 'c', updates: [{ q: 1, u: 2 }] },
      { update: 'c', updates: [{ q: {}, u: { $bogus: { a: 1 } } }] },
      { delete: 'c', deletes: [{ q: { $where: 'x' }, limit: 0 }] },
      { aggregate: 'c', pipeline: [{ $bogus: 1 }], cursor: {} },
      { aggregate: 'c', pipeline: 'x', cursor: {} },
      { aggregate: 'c', pipeline: [{ $group: { total: { $sum: 1 } } }], cursor: {} },
      { find: 'c', filter: { a: { $unknownOp: 1 } } },
      { find: 'c', filter: { $or: [] } },
      { find: 'c', sort: { a: 'sideways' } },
      { createIndexes: 'c', indexes: [{ key: {} }] },
      { createIndexes: 'c', indexes: 'x' },
      { getMore: Long.fromNumber(-5), collection: 'c' },
      { killCursors: 'c', cursors: 'x' },
      { distinct: 'c' },
      { count: 'c', query: { a: { $in: 5 } } },
      { findAndModify: 'c' },
      { commitTransaction: 1 },
      { create: '' },
      { drop: 'never-existed' },
      { renameCollection: 'x', to: 'y' },
    ];
    for (const cmd of odd) await db.command(cmd).catch(() => undefined);
    expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    await db.collection('c').insertOne({ still: 'works' });
    expect(await db.collection('c').countDocuments({ still: 'works' })).toBe(1);
  });

  it('handles documents nested a hundred levels deep', async () => {
    let doc: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 100; i++) doc = { n: doc };
    const coll = client.db('fuzz').collection('deep');
    await coll.insertOne(doc);
    expect(await coll.countDocuments()).toBe(1);
  });
});
