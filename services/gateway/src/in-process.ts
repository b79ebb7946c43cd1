import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

export class UpstreamTimeoutError extends Error {
  readonly statusCode = 504;
  constructor() {
    super('the upstream took too long to answer');
  }
}

/**
 * Forwards a request to a service in the same process, as the HTTP forwarding does: the same
 * headers (the caller's identity and the internal secret set by `rewriteHeaders`), the body as the
 * client sent it, the answer's status and headers passed back and its bytes streamed as they are
 * written, so an event stream reaches the caller event by event. An answer whose headers take longer
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
    // A caller that goes away before the end closes the upstream's response, as a closed socket
    // would: an event stream's handler then lets its viewer go.
    body.once('close', () => answer.raw.res.destroy());
    return reply.send(body);
  } finally {
    clearTimeout(timer);
  }
}
