import type { IncomingMessage } from 'node:http';

/** The most of a refused body read and dropped before answering, and the longest wait for it. */
export const REFUSED_BODY_DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const REFUSED_BODY_DRAIN_MAX_MS = 5000;

/**
 * Reads and drops what is left of a request body the gateway refused (413), so the refusal reaches
 * the client. The answer closes the connection; closed while the client is still sending, the
 * connection is reset and the client sees 'connection reset' in place of the 413 (a chunked upload
 * over the limit, or one whose Content-Length is over it). Bounded: a body larger than
 * REFUSED_BODY_DRAIN_MAX_BYTES (declared or sent) or slower than REFUSED_BODY_DRAIN_MAX_MS is answered
 * without waiting for the rest.
 */
export function drainRefusedBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > REFUSED_BODY_DRAIN_MAX_BYTES) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let drained = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', finish).off('close', finish).off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > REFUSED_BODY_DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, REFUSED_BODY_DRAIN_MAX_MS);
    raw.on('data', onData).once('end', finish).once('close', finish).once('error', finish);
    raw.resume();
  });
}
