// One client connection: frames the byte stream into messages, answers each in order. Bad input
// gets an error reply (or closes this socket if the framing itself is lost), never the process.
import net from 'node:net';
import { Document } from 'bson';
import {
  MAX_MESSAGE_SIZE,
  OP_MSG,
  OP_QUERY,
  GossipedTime,
  ParsedMessage,
  buildMsg,
  buildReply,
  parseMessage,
  readHeader,
} from './messages';

/** Set on a reply (a symbol, so never serialised) to tell the connection what to do with it. */
export const FAIL_ACTION = Symbol('failAction');

export interface FailAction {
  /** Close the connection instead of replying. */
  close?: boolean;
  /** Hold the reply (and the connection's next messages) this long. */
  delayMs?: number;
}

export type CommandRunner = (
  cmd: Document,
  defaultDb: string,
  connectionId: number,
  gossiped?: GossipedTime,
) => Document;

export interface ConnectionLimits {
  /** Largest message a client may announce; MongoDB's maxMessageSizeBytes by default. */
  maxMessageSizeBytes?: number;
}

// Smallest valid message: the 16-byte header alone.
const HEADER_BYTES = 16;

function encode(opCode: number, responseTo: number, doc: Document, checksum: boolean): Buffer {
  return opCode === OP_QUERY ? buildReply(responseTo, doc) : buildMsg(responseTo, doc, checksum);
}

export function serveConnection(
  socket: net.Socket,
  connectionId: number,
  run: CommandRunner,
  onError: (err: unknown) => void,
  limits: ConnectionLimits = {},
): void {
  const maxMessageSize = limits.maxMessageSizeBytes ?? MAX_MESSAGE_SIZE;
  // Bytes received but not yet handled, kept as the chunks they arrived in: concatenating on every
  // chunk would copy a large message over and over (quadratic in its size). They are joined once,
  // when a whole message is present. The announced length caps how much is held.
  let chunks: Buffer[] = [];
  let buffered = 0;
  // Length announced by the header of the message being received; -1 until 4 bytes are in.
  let expected = -1;
  // Set while the socket's outgoing buffer is full: no further messages are handled (so no further
  // replies pile up in memory) until the client has read what it was sent.
  let waitingForDrain = false;
  /** A failCommand fail point holds this connection's reply (blockConnection): read nothing more. */
  let blocked = false;
  socket.setNoDelay(true);

  const reply = (
    msg: ParsedMessage | undefined,
    responseTo: number,
    opCode: number,
    doc: Document,
    checksum: boolean,
  ) => {
    if (msg?.kind === 'msg' && msg.moreToCome) return;
    let out: Buffer;
    try {
      out = encode(opCode, responseTo, doc, checksum);
    } catch (err) {
      // A reply too large to serialise (e.g. a huge $group) fails this command, not the connection.
      out = encode(
        opCode,
        responseTo,
        {
          ok: 0,
          errmsg: `reply could not be encoded: ${err instanceof Error ? err.message : String(err)}`,
          code: 10334,
          codeName: 'BSONObjectTooLarge',
        },
        checksum,
      );
    }
    // write() returns false once the outgoing buffer passes its high-water mark: a client that
    // pipelines commands without reading the replies must not make the server hold them all.
    if (!socket.write(out)) {
      waitingForDrain = true;
      socket.pause();
    }
  };

  const handle = (frame: Buffer) => {
    const header = readHeader(frame);
    let msg: ParsedMessage;
    try {
      msg = parseMessage(frame);
    } catch (err) {
      const errmsg = err instanceof Error ? err.message : String(err);
      reply(
        undefined,
        header.requestId,
        header.opCode === OP_QUERY ? OP_QUERY : OP_MSG,
        { ok: 0, errmsg: `invalid message: ${errmsg}`, code: 22, codeName: 'InvalidBSON' },
        false,
      );
      return;
    }
    let doc: Document;
    let opCode: number;
    if (msg.kind === 'query') {
      const [db] = msg.fullCollectionName.split('.');
      const query = msg.query.$query ?? msg.query;
      doc = run(query, db || 'admin', connectionId);
      opCode = OP_QUERY;
    } else {
      doc = run(msg.command, 'admin', connectionId, msg.gossiped);
      opCode = OP_MSG;
    }
    const checksum = msg.kind === 'msg' && msg.checksum;
    const action = (doc as Record<symbol, FailAction | undefined>)[FAIL_ACTION];
    // Replied to directly, without a closure per message: under tsx every named closure also
    // costs a defineProperty of its name.
    if (!action || (!action.close && !action.delayMs))
      return reply(msg, header.requestId, opCode, doc, checksum);
    if (action.close) {
      socket.destroy();
      return;
    }
    blocked = true;
    setTimeout(() => {
      blocked = false;
      if (socket.destroyed) return;
      reply(msg, header.requestId, opCode, doc, checksum);
      drainInput();
    }, action.delayMs);
  };

  /** The little-endian int32 at the start of the buffered bytes (which may span several chunks). */
  const peekLength = (): number => {
    const first = chunks[0];
    if (first.length >= 4) return first.readInt32LE(0);
    const head = Buffer.alloc(4);
    let filled = 0;
    for (const c of chunks) {
      filled += c.copy(head, filled, 0, Math.min(c.length, 4 - filled));
      if (filled === 4) break;
    }
    return head.readInt32LE(0);
  };

  /** Handles every complete message buffered so far, unless replies are waiting to be read. */
  const drainInput = () => {
    try {
      while (!waitingForDrain && !blocked && !socket.destroyed) {
        if (expected < 0) {
          if (buffered < 4) return;
          expected = peekLength();
          if (expected < HEADER_BYTES || expected > maxMessageSize) {
            // Too short to be a message, or more than any client may send: the stream can no
            // longer be framed (or is an attempt to make the server buffer without limit).
            // Only this client is affected.
            chunks = [];
            buffered = 0;
            socket.destroy();
            return;
          }
        }
        if (buffered < expected) return;
        const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, buffered);
        const frame = all.subarray(0, expected);
        const rest = all.subarray(expected);
        chunks = rest.length > 0 ? [rest] : [];
        buffered = rest.length;
        expected = -1;
        handle(frame);
      }
    } catch (err) {
      onError(err);
      socket.destroy();
    }
  };

  socket.on('data', (data: Buffer) => {
    chunks.push(data);
    buffered += data.length;
    drainInput();
  });
  socket.on('drain', () => {
    if (!waitingForDrain) return;
    waitingForDrain = false;
    socket.resume();
    drainInput();
  });
  socket.on('error', () => socket.destroy());
}
