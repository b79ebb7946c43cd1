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
  /** The time of the command's `$clusterTime`, which is then not in `command`. */
  gossiped?: GossipedTime;
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

/**
 * The cluster time a command's `$clusterTime` gossips, read straight from its bytes (ParsedMsg's
 * `gossiped`, the field itself cut out). The driver sends `$clusterTime` with every command to a
 * replica set; only its timestamp is used (this server keeps no keys, so the signature is not
 * checked), and decoding the whole field (two documents, a Binary, a Long and a Timestamp) for
 * every command cost more than reading those 8 bytes. A `$clusterTime` of another shape stays in
 * the command, decoded as any other field.
 */
export interface GossipedTime {
  t: number;
  i: number;
}

const CLUSTER_TIME_NAME = Buffer.from('$clusterTime', 'latin1');
const INNER_NAME = Buffer.from('clusterTime', 'latin1');

/** Where the element name starting at `p` ends (its zero byte); -1 if not before `end`. */
function nameEnd(buf: Buffer, p: number, end: number): number {
  while (p < end && buf[p] !== 0) p++;
  return p < end ? p : -1;
}

function nameIs(buf: Buffer, from: number, to: number, name: Buffer): boolean {
  if (to - from !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (buf[from + k] !== name[k]) return false;
  return true;
}

/** Bytes a BSON value of this type occupies at `pos`; -1 for a type not walked here. */
function valueSize(buf: Buffer, type: number, pos: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // UTC datetime
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return 4 + buf.readInt32LE(pos);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return buf.readInt32LE(pos);
    case 0x05: // binary
      return 5 + buf.readInt32LE(pos);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default:
      return -1;
  }
}

/** The `t`/`i` of a `{ clusterTime: Timestamp, ... }` document at `start` (its length prefix). */
function innerClusterTime(buf: Buffer, start: number, end: number): GossipedTime | undefined {
  let p = start + 4;
  while (p < end - 1) {
    const type = buf[p];
    const zero = nameEnd(buf, p + 1, end);
    if (zero < 0) return undefined;
    if (type === 0x11 && nameIs(buf, p + 1, zero, INNER_NAME))
      return { i: buf.readUInt32LE(zero + 1), t: buf.readUInt32LE(zero + 5) };
    const size = valueSize(buf, type, zero + 1);
    if (size < 0) return undefined;
    p = zero + 1 + size;
  }
  return undefined;
}

/**
 * Decodes a command body; a well-formed top-level `$clusterTime` document is first cut out of the
 * bytes (the rest of the document moved over it, in this message's own buffer) and its time
 * returned beside the command.
 */
function readCommandBody(
  buf: Buffer,
  offset: number,
  end: number,
): [Document, number, GossipedTime | undefined] {
  if (offset + 5 > end) throw new ProtocolError('document runs past the end of the message');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError(`invalid document size ${size}`);
  const docEnd = offset + size;
  let p = offset + 4;
  while (p < docEnd - 1) {
    const type = buf[p];
    const zero = nameEnd(buf, p + 1, docEnd);
    if (zero < 0) break;
    const valueAt = zero + 1;
    if (valueAt + 4 > docEnd) break;
    const vsize = valueSize(buf, type, valueAt);
    if (vsize < 0 || valueAt + vsize > docEnd) break;
    if (type === 0x03 && nameIs(buf, p + 1, zero, CLUSTER_TIME_NAME)) {
      const ts = innerClusterTime(buf, valueAt, valueAt + vsize);
      if (!ts) break;
      buf.copyWithin(p, valueAt + vsize, docEnd);
      const newSize = size - (valueAt + vsize - p);
      buf.writeInt32LE(newSize, offset);
      const doc = BSON.deserialize(buf.subarray(offset, offset + newSize), DESERIALIZE_OPTIONS);
      return [doc, docEnd, ts];
    }
    p = valueAt + vsize;
  }
  return [...readDocument(buf, offset, end), undefined];
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
  let gossiped: GossipedTime | undefined;
  const sequences: Record<string, Document[]> = {};
  while (off < end) {
    const kind = buf[off++];
    if (kind === 0) {
      if (body) throw new ProtocolError('more than one body section');
      [body, off, gossiped] = readCommandBody(buf, off, end);
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
  return {
    kind: 'msg',
    header,
    moreToCome: (flags & FLAG_MORE_TO_COME) !== 0,
    checksum,
    command: body,
    gossiped,
  };
}

let nextRequestId = 1;

/**
 * Set on a reply document: BSON elements, already encoded, that follow its own fields (the cluster
 * times every replica-set reply carries, encoded once per tick rather than once per reply). A
 * symbol, so BSON.serialize never sees it.
 */
export const EXTRA_ELEMENTS = Symbol('extraElements');

function extraOf(doc: Document): Uint8Array | undefined {
  return (doc as Record<symbol, Uint8Array | undefined>)[EXTRA_ELEMENTS];
}

/** Writes the encoded reply followed by its extra elements (length and terminator adjusted). */
function writeBody(out: Buffer, at: number, body: Uint8Array, extra: Uint8Array | undefined): void {
  if (!extra) {
    out.set(body, at);
    return;
  }
  const size = body.length + extra.length;
  out.set(body.subarray(0, body.length - 1), at);
  out.set(extra, at + body.length - 1);
  out[at + size - 1] = 0;
  out.writeInt32LE(size, at);
}

export function buildReply(responseTo: number, doc: Document): Buffer {
  const body = BSON.serialize(doc);
  const extra = extraOf(doc);
  const out = Buffer.allocUnsafe(16 + 20 + body.length + (extra?.length ?? 0));
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OP_REPLY, 12);
  out.writeInt32LE(0, 16);
  out.writeBigInt64LE(0n, 20);
  out.writeInt32LE(0, 28);
  out.writeInt32LE(1, 32);
  writeBody(out, 36, body, extra);
  return out;
}

export function buildMsg(responseTo: number, doc: Document, withChecksum: boolean): Buffer {
  const body = BSON.serialize(doc);
  const extra = extraOf(doc);
  const length = 16 + 4 + 1 + body.length + (extra?.length ?? 0) + (withChecksum ? 4 : 0);
  const out = Buffer.allocUnsafe(length);
  out.writeInt32LE(length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OP_MSG, 12);
  out.writeUInt32LE(withChecksum ? FLAG_CHECKSUM : 0, 16);
  out[20] = 0;
  writeBody(out, 21, body, extra);
  if (withChecksum) out.writeUInt32LE(crc32c(out, 0, length - 4), length - 4);
  return out;
}
