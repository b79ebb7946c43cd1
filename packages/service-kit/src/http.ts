import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Logger } from 'pino';
import { InternalReadError } from './internal-reads';
import { databaseUnavailable } from './mongo';
import { HttpError } from './errors';
import { type CallerIdentity, fromGateway, readCallerIdentity, sameSecret } from './identity-headers';
import type { ServiceMetrics } from './metrics';
import { enforceRouteContracts, responseChecksEnabled } from './route-contracts';
import { declaredValidationProblem } from './validation';

/** The platform's release: the repository's `version`, shown in the details of every /health. */
export const PLATFORM_VERSION = readPlatformVersion();

function readPlatformVersion(): string {
  try {
    const root = path.resolve(__dirname, '../../../package.json');
    const { version } = JSON.parse(readFileSync(root, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface HealthCheck {
  name: string;
  check: () => Promise<unknown>;
}

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Dependencies `/health` reports on (MongoDB, Redis, the event bus). */
  healthChecks?: HealthCheck[];
  /** When set, identity headers are honoured only with this secret (every service but the gateway). */
  internalSecret?: string;
  bodyLimit?: number;
  /**
   * For the public edge (the gateway): the dependency details of `/health` are answered only to callers
   * presenting this secret (`Authorization: Bearer …` or `x-internal-secret`); everyone else gets a bare
   * status. Services are not public and keep them open.
   */
  operationalSecret?: string;
  /**
   * The token `/metrics` asks for (`Authorization: Bearer <METRICS_TOKEN>`, as Prometheus and the
   * operations console send it); any other caller gets 401. Default: the process's METRICS_TOKEN, so
   * workers and hosts that do not pass it still ask for it. Without one, /metrics answers no one.
   */
  metricsToken?: string;
  /** Replaces the JSON 404 (the gateway hands unknown paths to the shell instead). */
  notFoundHandler?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  fastify?: Partial<FastifyServerOptions>;
  /**
   * Check every answer of a declared /api route against its contract (500 and a log line when it does
   * not match). Default: on when RESPONSE_CONFORMANCE=strict, as the integration tests set it.
   */
  checkResponses?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, as forwarded by the gateway; null when anonymous. */
    caller: CallerIdentity | null;
    /**
     * The client's address: the one the gateway judged and forwarded (X-Forwarded-For) when the
     * request carries the gateway's secret, else the connecting peer. Whoever reaches a service port
     * directly cannot choose the address that rate limits and sign-in throttles count.
     */
    clientAddress: string;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';
/** A request id a client may bring: it flows into logs and event correlation ids, so only plain tokens. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The incoming x-request-id when it is well formed; otherwise a new one is made here. */
export function requestIdFor(headers: IncomingHttpHeaders): string {
  const given = headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID();
}
const HEALTH_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A request slower than this is logged at info even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One line per request, with what fastify's two lines held. A request that failed (4xx, 5xx) or took
 * longer than SLOW_REQUEST_MS is logged at info; a quick success at debug, so LOG_LEVEL=debug brings
 * back the full request log. At info, serialising and relaying a line per request cost more CPU than
 * the search engine itself; the request rate and durations stay in /metrics either way.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const level = reply.statusCode >= 400 || reply.elapsedTime > SLOW_REQUEST_MS ? 'info' : 'debug';
  request.log[level](
    { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
    'request completed',
  );
}

/**
 * The fastify instance every service starts from: request ids carried from the gateway, one error
 * handler (clear 4xx, masked 5xx), `/alive`, `/health`, `/metrics` and HTTP duration metrics.
 */
export function createServiceApp(options: ServiceAppOptions): FastifyInstance {
  const { logger, metrics, internalSecret } = options;
  const app = Fastify({
    loggerInstance: logger,
    requestIdHeader: false,
    genReqId: (req) => requestIdFor(req.headers),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: false,
    // Fastify logs two lines per request; the hook below logs one (see logRequest).
    logController: new LogController({ disableRequestLogging: true }),
    ...options.fastify,
  }) as unknown as FastifyInstance;

  enforceRouteContracts(app, options.name, {
    checkResponses: options.checkResponses ?? responseChecksEnabled(),
  });
  app.decorateRequest('caller', null);
  app.decorateRequest('clientAddress', '');
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    request.caller = internalSecret ? readCallerIdentity(request.headers, internalSecret) : null;
    const forwarded = request.headers['x-forwarded-for'];
    const viaGateway = internalSecret !== undefined && fromGateway(request.headers, internalSecret);
    request.clientAddress =
      viaGateway && typeof forwarded === 'string' && forwarded.trim()
        ? (forwarded.split(',')[0] ?? '').trim()
        : request.ip;
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    logRequest(request, reply);
  });

  app.setErrorHandler((raw: Error & { statusCode?: number }, request, reply) => {
    // A declared route's input refused by its schema (declareRoute) reads like any other 400.
    if (raw instanceof InternalReadError)
      request.log.warn({ err: raw }, 'the owning service could not be asked');
    // A call that could not reach MongoDB is a prompt 503 to try again, not a masked 500.
    const unreachable = databaseUnavailable(raw);
    if (unreachable) {
      request.log.error({ err: raw }, 'database unreachable');
      reply.header('retry-after', String(unreachable.details?.retryAfterSeconds));
    }
    const error =
      declaredValidationProblem(raw) ??
      unreachable ??
      (raw instanceof InternalReadError ? raw.toHttpError() : raw);
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send({ success: false, error: error.message, ...error.details });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own 4xx (malformed JSON, body too large, unsupported media type) are safe to show.
      return reply.status(status).send({ success: false, error: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      success: false,
      error: 'Something went wrong on our side. Please try again.',
      requestId: request.id,
    });
  });
  app.setNotFoundHandler(options.notFoundHandler ?? sendRouteNotFound);

  // Probes hit these every few seconds; logging each would drown the request log.
  const quiet = { logLevel: 'silent' as const };
  app.get('/alive', quiet, async () => ({ status: 'ok', service: options.name }));
  const { operationalSecret } = options;
  const mayReadDetails = (headers: IncomingHttpHeaders) => {
    if (!operationalSecret) return true;
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    return (
      fromGateway(headers, operationalSecret) ||
      (bearer !== undefined && sameSecret(bearer, operationalSecret))
    );
  };
  app.get('/health', quiet, async (request, reply) => {
    const results = await Promise.all(
      (options.healthChecks ?? []).map(async ({ name, check }) => {
        try {
          await withTimeout(Promise.resolve(check()), HEALTH_TIMEOUT_MS, name);
          return [name, { status: 'ok' }] as const;
        } catch (err) {
          return [name, { status: 'down', error: (err as Error).message }] as const;
        }
      }),
    );
    const healthy = results.every(([, r]) => r.status === 'ok');
    if (!mayReadDetails(request.headers)) {
      return reply.status(healthy ? 200 : 503).send({ status: healthy ? 'ok' : 'degraded' });
    }
    return reply.status(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'degraded',
      service: options.name,
      version: PLATFORM_VERSION,
      checks: Object.fromEntries(results),
    });
  });
  // Metrics have their own credential: the internal secret, which lets a caller speak as any user, is
  // not asked of a scraper, and the metrics token opens nothing else.
  const metricsToken = options.metricsToken ?? process.env.METRICS_TOKEN;
  app.get('/metrics', quiet, async (request, reply) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!metricsToken || bearer === undefined || !sameSecret(bearer, metricsToken)) {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send({
        success: false,
        error: 'Metrics need the metrics token: Authorization: Bearer <METRICS_TOKEN>',
      });
    }
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  return app;
}

/** The JSON 404 for a method and path nothing answers (`what` names the kind of route, e.g. 'API route'). */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply, what = 'route') {
  return reply
    .status(404)
    .send({ success: false, error: `No ${what} for ${request.method} ${request.url.split('?')[0]}` });
}
