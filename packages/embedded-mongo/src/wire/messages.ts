// Parsing and building MongoDB wire messages: OP_QUERY/OP_REPLY (legacy handshake) and OP_MSG.
import { BSON, Document } from 'bson';
import { crc32c } from './crc32c';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

const FLAG_CHECKSUM = 1 << 0;
const FLAG_MORE_TO_COME = 1 << 1;

export const MAX_MESSAGE_SIZE = 48_000_000;

/** Options used for every incoming document: Longs stay Longs so numeric types round-trip. */
export const DESERIALIZE_OPTIONS = {
  promoteLongs: false,
  promoteValues: true,
  promoteBuffers: false,
  bsonRegExp: false,
} as const;

export class ProtocolError extends Error {}

export interface Header {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export interface ParsedQuery {
  kind: 'query';
  header: Header;
  fullCollectionName: string;
  query: Document;
}

export interface ParsedMsg {
  kind: 'msg';
  header: Header;
  moreToCome: boolean;
  checksum: boolean;
  command: Document;
}

export type ParsedMessage = ParsedQuery | ParsedMsg;

export function readHeader(buf: Buffer): Header {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

function readCString(buf: Buffer, offset: number, end: number): [string, number] {
  const zero = buf.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated cstring');
  return [buf.toString('utf8', offset, zero), zero + 1];
}

function readDocument(buf: Buffer, offset: number, end: number): [Document, number] {
  if (offset + 5 > end) throw new ProtocolError('document runs past the end of the message');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError(`invalid document size ${size}`);
  const doc = BSON.deserialize(buf.subarray(offset, offset + size), DESERIALIZE_OPTIONS);
  return [doc, offset + size];
}

/** Parses one complete message (buf holds exactly `header.length` bytes). */
export function parseMessage(buf: Buffer): ParsedMessage {
  const header = readHeader(buf);
  if (header.opCode === OP_QUERY) {
    let off = 16 + 4;
    const [name, after] = readCString(buf, off, buf.length);
    off = after + 8;
    const [query] = readDocument(buf, off, buf.length);
    return { kind: 'query', header, fullCollectionName: name, query };
  }
  if (header.opCode !== OP_MSG) throw new ProtocolError(`unsupported opcode ${header.opCode}`);
  const flags = buf.readUInt32LE(16);
  const checksum = (flags & FLAG_CHECKSUM) !== 0;
  let end = buf.length;
  if (checksum) {
    end -= 4;
    if (end < 20) throw new ProtocolError('message too short for a checksum');
    const expected = buf.readUInt32LE(end);
    if (crc32c(buf, 0, end) !== expected) throw new ProtocolError('OP_MSG checksum does not match contents');
  }
  let off = 20;
  let body: Document | undefined;
  const sequences: Record<string, Document[]> = {};
  while (off < end) {
    const kind = buf[off++];
    if (kind === 0) {
      if (body) throw new ProtocolError('more than one body section');
      [body, off] = readDocument(buf, off, end);
    } else if (kind === 1) {
      if (off + 4 > end) throw new ProtocolError('truncated document sequence');
      const size = buf.readInt32LE(off);
      const seqEnd = off + size;
      if (size < 5 || seqEnd > end) throw new ProtocolError('invalid document sequence size');
      let [id, p] = readCString(buf, off + 4, seqEnd);
      const docs: Document[] = [];
      while (p < seqEnd) {
        let d: Document;
        [d, p] = readDocument(buf, p, seqEnd);
        docs.push(d);
      }
      sequences[id] = docs;
      off = seqEnd;
      id = '';
    } else {
      throw new ProtocolError(`unknown section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without a body section');
  for (const [id, docs] of Object.entries(sequences)) body[id] = docs;
  return { kind: 'msg', header, moreToCome: (flags & FLAG_MORE_TO_COME) !== 0, checksum, command: body };
}

let nextRequestId = 1;

export function buildReply(responseTo: number, doc: Document): Buffer {
  const body = BSON.serialize(doc);
  const out = Buffer.allocUnsafe(16 + 20 + body.length);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OP_REPLY, 12);
  out.writeInt32LE(0, 16);
  out.writeBigInt64LE(0n, 20);
  out.writeInt32LE(0, 28);
  out.writeInt32LE(1, 32);
  out.set(body, 36);
  return out;
}

export function buildMsg(responseTo: number, doc: Document, withChecksum: boolean): Buffer {
  const body = BSON.serialize(doc);
  const length = 16 + 4 + 1 + body.length + (withChecksum ? 4 : 0);
  const out = Buffer.allocUnsafe(length);
  out.writeInt32LE(length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OP_MSG, 12);
  out.writeUInt32LE(withChecksum ? FLAG_CHECKSUM : 0, 16);
  out[20] = 0;
  out.set(body, 21);
  if (withChecksum) out.writeUInt32LE(crc32c(out, 0, length - 4), length - 4);
  return out;
}
