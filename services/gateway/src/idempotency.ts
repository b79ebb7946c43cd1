import { isCreatingRoute } from '@lsp/contracts';
import type { CallerIdentity } from '@lsp/service-kit';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { declaredRouteOf } from './api-keys';
import { withinRedisWait } from './redis-wait';

/**
 * `Idempotency-Key` (the IETF httpapi idempotency-key draft) on every creating POST, once, here: a
 * POST whose declared answers include a 201 (read from the contracts, so a new creating route is
 * covered without a list to keep). Per signed-in user (session or API key), for IDEMPOTENCY_TTL_SECONDS:
 * - the first request with a key runs, and its answer (status, content type, body) is kept;
 * - the same key with the same request (method, path and body bytes) answers that answer again, with
 *   `Idempotent-Replayed: true`, and nothing is created twice;
 * - the same key with another request is 422; while the first still runs, a second is 409;
 * - an answer of 500 or more is not kept, so the request may be tried again with the same key.
 * The header on other routes, or from an anonymous caller, is ignored.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_MESSAGES = {
  invalidKey: 'Idempotency-Key must be one value of 1 to 255 visible ASCII characters.',
  otherRequest:
    'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  unavailable:
    'We could not check the Idempotency-Key just now, so nothing was done. Please try again in a few seconds.',
  stillRunning:
    'A request with this Idempotency-Key is still being processed. Retry in a moment to get its answer.',
} as const;
/** 1 to 255 visible ASCII characters. */
const VISIBLE_ASCII_KEY = /^[\x21-\x7e]{1,255}$/;
/** How long the first request holds its key while it runs, past the upstream timeout. */
const RUNNING_MARGIN_SECONDS = 30;

interface RunningEntry {
  state: 'running';
  fingerprint: string;
}
interface DoneEntry {
  state: 'done';
  fingerprint: string;
  status: number;
  contentType: string | null;
  /** The answer's body, base64. */
  body: string;
}
type Entry = RunningEntry | DoneEntry;

interface Claim {
  storeKey: string;
  fingerprint: string;
  settled: boolean;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function isCreatingPost(request: FastifyRequest): boolean {
  if (request.method !== 'POST') return false;
  const route = declaredRouteOf('POST', request.url);
  return route !== null && isCreatingRoute(route);
}

async function bytesOf(payload: unknown): Promise<Buffer> {
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(payload)) return payload;
  if (typeof payload === 'string') return Buffer.from(payload);
  if (payload instanceof Readable || typeof (payload as Readable).pipe === 'function') {
    const chunks: Buffer[] = [];
    for await (const chunk of payload as Readable) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  }
  return Buffer.from(JSON.stringify(payload));
}

export function registerIdempotency(
  app: FastifyInstance,
  redis: Redis,
  options: { ttlSeconds: number; upstreamTimeoutMs: number },
) {
  const claims = new WeakMap<FastifyRequest, Claim>();
  const runningSeconds = Math.ceil(options.upstreamTimeoutMs / 1000) + RUNNING_MARGIN_SECONDS;

  // The first answer is kept as it leaves (the upstream's body read whole), then sent as usual.
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request);
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    if (reply.statusCode >= 500) {
      await redis
        .del(claim.storeKey)
        .catch((err: unknown) => request.log.warn({ err }, 'idempotency key not freed'));
      return payload;
    }
    const body = await bytesOf(payload);
    const contentType = reply.getHeader('content-type');
    const entry: DoneEntry = {
      state: 'done',
      fingerprint: claim.fingerprint,
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : null,
      body: body.toString('base64'),
    };
    // Not kept (Redis failed): the answer still goes out; the claim expires and a retry then runs again.
    await redis
      .set(claim.storeKey, JSON.stringify(entry), 'EX', options.ttlSeconds)
      .catch((err: unknown) => request.log.error({ err }, 'idempotent answer not kept'));
    return body;
  });
  // A request that ended without an answer to keep (the client went away) frees its key.
  app.addHook('onResponse', async (request) => {
    const claim = claims.get(request);
    if (claim && !claim.settled) {
      await redis
        .del(claim.storeKey)
        .catch((err: unknown) => request.log.warn({ err }, 'idempotency key not freed'));
    }
  });

  /**
   * Called once the caller is known, before the request is forwarded: true when this function has
   * answered (a replay, a 409, 422 or 400) and the request must go no further.
   */
  return async function idempotent(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: CallerIdentity | null,
  ): Promise<boolean> {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !caller || !isCreatingPost(request)) return false;
    if (typeof header !== 'string' || !VISIBLE_ASCII_KEY.test(header)) {
      reply.status(400).send({ success: false, error: IDEMPOTENCY_MESSAGES.invalidKey });
      return true;
    }
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const fingerprint = sha256Hex(Buffer.concat([Buffer.from(`${request.method} ${request.url}\n`), body]));
    const storeKey = `idempotency:${caller.userId}:${sha256Hex(header)}`;
    const running: RunningEntry = { state: 'running', fingerprint };
    for (let attempt = 0; attempt < 2; attempt++) {
      let claimed: string | null;
      let text: string | null = null;
      try {
        claimed = await withinRedisWait(
          redis.set(storeKey, JSON.stringify(running), 'EX', runningSeconds, 'NX'),
          'idempotency claim',
        );
        if (claimed !== 'OK') text = await withinRedisWait(redis.get(storeKey), 'idempotency read');
      } catch (err) {
        // Without the store, running the request could create it twice: nothing is done.
        request.log.error({ err }, 'idempotency store unavailable');
        reply.header('retry-after', '5');
        reply
          .status(503)
          .send({ success: false, error: IDEMPOTENCY_MESSAGES.unavailable, retryAfterSeconds: 5 });
        return true;
      }
      if (claimed === 'OK') {
        claims.set(request, { storeKey, fingerprint, settled: false });
        return false;
      }
      // Freed between the two calls (the first failed or expired): claim it again.
      if (!text) continue;
      const entry = JSON.parse(text) as Entry;
      if (entry.fingerprint !== fingerprint) {
        reply.status(422).send({ success: false, error: IDEMPOTENCY_MESSAGES.otherRequest });
        return true;
      }
      if (entry.state === 'running') {
        reply.header('retry-after', '1');
        reply.status(409).send({ success: false, error: IDEMPOTENCY_MESSAGES.stillRunning });
        return true;
      }
      reply.status(entry.status).header('idempotent-replayed', 'true');
      if (entry.contentType) reply.header('content-type', entry.contentType);
      reply.send(Buffer.from(entry.body, 'base64'));
      return true;
    }
    reply.header('retry-after', '1');
    reply.status(409).send({ success: false, error: IDEMPOTENCY_MESSAGES.stillRunning });
    return true;
  };
}
