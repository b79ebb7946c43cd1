// Raw wire messages for the tests that drive the server's framing byte by byte.
import { BSON, Document } from 'bson';

/** An OP_MSG (opCode 2013) with no flags and one body section holding `doc`. */
export function opMsg(doc: Document, requestId = 1): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const out = Buffer.alloc(21 + body.length);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(requestId, 4);
  out.writeInt32LE(2013, 12);
  body.copy(out, 21);
  return out;
}
