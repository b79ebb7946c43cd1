import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { notFound, serviceUnavailable } from './errors';
import { IDENTITY_HEADERS, fromGateway } from './identity-headers';

/**
 * Reads one service makes of another that owns a fact, where the reader's own projection (kept from
 * the owner's events) may be behind what the same user has just done: the owner answers, so no call a
 * person makes is refused or answered stale because an event is still on its way.
 */

/** How long a read of the owner may take before the caller answers 503 'try again'. */
export const INTERNAL_READ_TIMEOUT_MS = 2000;

export class InternalReader {
  constructor(
    private readonly options: {
      /** The owning service's base URL (`DIP_URL`, `SEARCH_URL`). */
      baseUrl: string;
      internalSecret: string;
      /** Who is asked, for the 503's log line. */
      owner: string;
      timeoutMs?: number;
    },
  ) {}

  /** GET a path of the owner: its answer parsed with `schema`, or null when the owner answers 404. */
  get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S> | null> {
    return this.request('GET', path, undefined, schema);
  }

  post<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S> | null> {
    return this.request('POST', path, body, schema);
  }

  private async request<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    schema: S,
  ): Promise<z.infer<S> | null> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          [IDENTITY_HEADERS.secret]: this.options.internalSecret,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? INTERNAL_READ_TIMEOUT_MS),
      });
    } catch (err) {
      throw new InternalReadError(this.options.owner, `${method} ${path}: ${(err as Error).message}`);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new InternalReadError(this.options.owner, `${method} ${path} answered ${response.status}`);
    }
    return schema.parse(await response.json());
  }
}

/** The owner could not be asked: the caller answers 503 'try again' (through the error handler). */
export class InternalReadError extends Error {
  constructor(
    readonly owner: string,
    detail: string,
  ) {
    super(`the ${owner} service could not be asked (${detail})`);
    this.name = 'InternalReadError';
  }

  /** The 503 a person sees, in plain words. */
  toHttpError() {
    return serviceUnavailable('This is taking longer than it should. Please try again in a moment.');
  }
}

/**
 * Registers a read other services make of this one. It answers only a caller holding the internal
 * secret (the gateway never forwards a path outside /api, so people cannot reach it at all); anyone
 * else gets a bare 404, as for a path that does not exist.
 */
export function registerInternalRead<Params, Body>(
  app: FastifyInstance,
  internalSecret: string,
  route: { method: 'GET' | 'POST'; path: string },
  handler: (request: FastifyRequest<{ Params: Params; Body: Body }>) => Promise<unknown>,
): void {
  app.route<{ Params: Params; Body: Body }>({
    method: route.method,
    url: route.path,
    handler: async (request, reply) => {
      if (!fromGateway(request.headers, internalSecret)) throw notFound();
      const answer = await handler(request);
      if (answer === null) return reply.status(404).send({ success: false, error: 'Not found' });
      return answer;
    },
  });
}
