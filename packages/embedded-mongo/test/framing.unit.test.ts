// Framing of the byte stream into messages, driven through a stand-in socket so that the exact
// chunking (thousands of 1-byte reads, a header split in two) is under the test's control, which
// TCP would not guarantee.
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { BSON, Document } from 'bson';
import { serveConnection } from '../src/wire/connection';
import { opMsg } from './op-msg';

class FakeSocket extends EventEmitter {
  destroyed = false;
  written: Buffer[] = [];
  setNoDelay(): this {
    return this;
  }
  write(buf: Buffer): boolean {
    this.written.push(buf);
    return true;
  }
  pause(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
  /** Replies written so far, as documents. */
  replies(): Document[] {
    return this.written.map((b) => BSON.deserialize(b.subarray(21)));
  }
}

function serve(limits?: { maxMessageSizeBytes?: number }): FakeSocket {
  const socket = new FakeSocket();
  // Echoes how many documents arrived and the payload size, so a reply proves the whole message was read.
  const run = (cmd: Document) => ({
    ok: 1,
    n: Array.isArray(cmd.documents) ? cmd.documents.length : 0,
    bytes: Array.isArray(cmd.documents) ? cmd.documents.reduce((s, d) => s + String(d.v).length, 0) : 0,
  });
  serveConnection(
    socket as unknown as net.Socket,
    1,
    run,
    (err) => {
      throw err;
    },
    limits,
  );
  return socket;
}

function sendInChunks(socket: FakeSocket, bytes: Buffer, size: number): void {
  for (let i = 0; i < bytes.length; i += size) socket.emit('data', bytes.subarray(i, i + size));
}

describe('wire framing', () => {
  afterEach(() => jest.restoreAllMocks());

  it('parses a message that arrives in thousands of 1-byte chunks, copying it only once', () => {
    const documents = Array.from({ length: 200 }, (_, i) => ({ _id: i, v: 'x'.repeat(100) }));
    const msg = opMsg({ insert: 'c', documents, $db: 'db' }, 7);
    expect(msg.length).toBeGreaterThan(20_000);
    // Buffering that joins everything received on every chunk copies n²/2 bytes; here the bytes
    // copied are counted instead of timed.
    let copied = 0;
    const concat = Buffer.concat.bind(Buffer);
    jest.spyOn(Buffer, 'concat').mockImplementation((list, total) => {
      const out = concat(list, total);
      copied += out.length;
      return out;
    });
    const socket = serve();
    sendInChunks(socket, msg, 1);
    expect(socket.destroyed).toBe(false);
    expect(socket.replies()).toEqual([{ ok: 1, n: 200, bytes: 20_000 }]);
    expect(socket.written[0].readInt32LE(8)).toBe(7);
    expect(copied).toBeLessThanOrEqual(msg.length);
  });

  it('reads a header split across chunks and several messages in one chunk', () => {
    const a = opMsg({ insert: 'c', documents: [{ v: 'a' }], $db: 'db' }, 1);
    const b = opMsg({ insert: 'c', documents: [{ v: 'bb' }, { v: 'c' }], $db: 'db' }, 2);
    const socket = serve();
    // 2 bytes, then the rest of a with b's first 3 bytes, then the rest.
    const stream = Buffer.concat([a, b]);
    socket.emit('data', stream.subarray(0, 2));
    socket.emit('data', stream.subarray(2, a.length + 3));
    socket.emit('data', stream.subarray(a.length + 3));
    expect(socket.replies()).toEqual([
      { ok: 1, n: 1, bytes: 1 },
      { ok: 1, n: 2, bytes: 3 },
    ]);
    // And two whole messages in a single chunk.
    socket.emit('data', stream);
    expect(socket.replies()).toHaveLength(4);
    expect(socket.destroyed).toBe(false);
  });

  it('closes a connection that announces more than maxMessageSizeBytes, before buffering it', () => {
    const socket = serve();
    const header = Buffer.alloc(16);
    header.writeInt32LE(48_000_001, 0);
    header.writeInt32LE(2013, 12);
    socket.emit('data', header);
    expect(socket.destroyed).toBe(true);

    const exact = serve();
    header.writeInt32LE(48_000_000, 0);
    exact.emit('data', header);
    expect(exact.destroyed).toBe(false);
  });

  it('honours a configured maxMessageSizeBytes', () => {
    const socket = serve({ maxMessageSizeBytes: 1000 });
    const big = opMsg({ insert: 'c', documents: [{ v: 'x'.repeat(2000) }], $db: 'db' });
    socket.emit('data', big.subarray(0, 100));
    expect(socket.destroyed).toBe(true);
    expect(socket.written).toHaveLength(0);
  });

  it.each([0, 15, -1, -2_000_000_000])('closes a connection that announces a length of %i', (length) => {
    const socket = serve();
    const header = Buffer.alloc(16);
    header.writeInt32LE(length, 0);
    socket.emit('data', header);
    expect(socket.destroyed).toBe(true);
  });
});
