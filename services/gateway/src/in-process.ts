import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEventStream } from './compression';
import type { UpstreamName } from './routes-table';

/** The static servers the gateway forwards to, beside the API services. */
export type StaticUpstreamName = 'shell' | 'search-mf' | 'dashboard-mf';

/**
 * The upstreams that run in the gateway's own process (the all-in-one host): each is reached by a
 * direct dispatch to its fastify instance instead of a socket. Those left out are reached over HTTP.
 */
export type InProcessUpstreams = Partial<Record<UpstreamName | StaticUpstreamName, FastifyInstance>>;

/** Headers that describe one connection, not the message: never passed from one hop to the next. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * An answer that declares its length, up to this size, is read whole before it is passed on, so the
 * gateway compresses it in one piece and writes it to the caller in one write with its length, instead
 * of relaying it as a chunked stream (a search's answer: two writes and the compressor's thread hops
 * fewer). Larger answers, and those of unknown length (an event stream), are streamed.
 */
export const WHOLE_ANSWER_MAX_BYTES = 1024 * 1024;

/**
 * Whether an upstream's answer, in process or over HTTP, is read whole before it is passed on (see
 * WHOLE_ANSWER_MAX_BYTES).
 */
export function readWhole(method: string, statusCode: number, headers: Record<string, unknown>): boolean {
  if (method === 'HEAD' || statusCode === 204 || statusCode === 304) return false;
  if (isEventStream(headers['content-type'])) return false;
  const declared = headers['content-length'];
  const length = typeof declared === 'string' || typeof declared === 'number' ? Number(declared) : NaN;
  return Number.isInteger(length) && length >= 0 && length <= WHOLE_ANSWER_MAX_BYTES;
}

export class UpstreamTimeoutError extends Error {
  readonly statusCode = 504;
  constructor() {
    super('the upstream took too long to answer');
  }
}

/**
 * Forwards a request to a service in the same process, as the HTTP forwarding does: the same
 * headers (the caller's identity and the internal secret set by `rewriteHeaders`), the body as the
 * client sent it, the answer's status and headers passed back; an answer of unknown length is streamed
 * as it is written, so an event stream reaches the caller event by event. An answer whose headers take longer
 * than `timeoutMs` rejects with a 504 error, as a slow upstream does over HTTP.
 */
export async function forwardInProcess(
  upstream: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: {
    body?: Buffer;
    rewriteHeaders?: (headers: Record<string, unknown>) => Record<string, unknown>;
    timeoutMs: number;
  },
): Promise<FastifyReply> {
  const incoming: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!HOP_BY_HOP.has(name) && name !== 'host' && name !== 'content-length') incoming[name] = value;
  }
  const headers = opts.rewriteHeaders ? opts.rewriteHeaders(incoming) : incoming;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new UpstreamTimeoutError()), opts.timeoutMs);
  });
  try {
    const answer = await Promise.race([
      upstream.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: headers as Record<string, string>,
        ...(opts.body ? { payload: opts.body } : {}),
        payloadAsStream: true,
      }),
      timeout,
    ]);
    reply.status(answer.statusCode);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
    }
    const body = answer.stream();
    if (readWhole(request.method, answer.statusCode, answer.headers))
      return reply.send(Buffer.concat(await body.toArray()));
    // A caller that goes away before the end closes the upstream's response, as a closed socket
    // would: an event stream's handler then lets its viewer go.
    body.once('close', () => answer.raw.res.destroy());
    return reply.send(body);
  } finally {
    clearTimeout(timer);
  }
}
