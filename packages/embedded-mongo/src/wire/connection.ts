// One client connection: frames the byte stream into messages, answers each in order. Bad input
// gets an error reply (or closes this socket if the framing itself is lost), never the process.
import net from 'node:net';
import { Document } from 'bson';
import {
  MAX_MESSAGE_SIZE,
  OP_MSG,
  OP_QUERY,
  ParsedMessage,
  buildMsg,
  buildReply,
  parseMessage,
  readHeader,
} from './messages';

export type CommandRunner = (cmd: Document, defaultDb: string, connectionId: number) => Document;

export function serveConnection(
  socket: net.Socket,
  connectionId: number,
  run: CommandRunner,
  onError: (err: unknown) => void,
): void {
  let chunks: Buffer[] = [];
  let buffered = 0;
  socket.setNoDelay(true);

  const reply = (
    msg: ParsedMessage | undefined,
    responseTo: number,
    opCode: number,
    doc: Document,
    checksum: boolean,
  ) => {
    if (msg?.kind === 'msg' && msg.moreToCome) return;
    const build = (d: Document) =>
      opCode === OP_QUERY ? buildReply(responseTo, d) : buildMsg(responseTo, d, checksum);
    let out: Buffer;
    try {
      out = build(doc);
    } catch (err) {
      // A reply too large to serialise (e.g. a huge $group) fails this command, not the connection.
      out = build({
        ok: 0,
        errmsg: `reply could not be encoded: ${err instanceof Error ? err.message : String(err)}`,
        code: 10334,
        codeName: 'BSONObjectTooLarge',
      });
    }
    socket.write(out);
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
    if (msg.kind === 'query') {
      const [db] = msg.fullCollectionName.split('.');
      const query = msg.query.$query ?? msg.query;
      const doc = run(query, db || 'admin', connectionId);
      reply(msg, header.requestId, OP_QUERY, doc, false);
      return;
    }
    const doc = run(msg.command, 'admin', connectionId);
    reply(msg, header.requestId, OP_MSG, doc, msg.checksum);
  };

  socket.on('data', (data: Buffer) => {
    chunks.push(data);
    buffered += data.length;
    try {
      while (buffered >= 4) {
        let buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        chunks = [buf];
        const length = buf.readInt32LE(0);
        if (length < 16 || length > MAX_MESSAGE_SIZE) {
          // The stream can no longer be framed; only this client is affected.
          socket.destroy();
          return;
        }
        if (buffered < length) return;
        const frame = buf.subarray(0, length);
        buf = buf.subarray(length);
        chunks = buf.length > 0 ? [buf] : [];
        buffered = buf.length;
        handle(frame);
      }
    } catch (err) {
      onError(err);
      socket.destroy();
    }
  });
  socket.on('error', () => socket.destroy());
}
