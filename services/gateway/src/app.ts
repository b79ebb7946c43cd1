import cookie from '@fastify/cookie';
import replyFrom from '@fastify/reply-from';
import { API_KEY_ID_HEADER } from '@lsp/contracts';
import {
  type CallerIdentity,
  IDENTITY_HEADERS,
  type Logger,
  REQUEST_ID_HEADER,
  STYLE_NONCE_HEADER,
  type ServiceMetrics,
  createServiceApp,
  identityHeaders,
  redisHealthCheck,
  sendRouteNotFound,
} from '@lsp/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Readable } from 'node:stream';
import { registerApiDocs } from './api-docs';
import { compressAnswer } from './compression';
import { countedPerKey, createApiKeyAuthenticator, usesApiKey } from './api-keys';
import type { GatewayConfig } from './config';
import { crossSiteRefusal } from './cross-site';
import { type InProcessUpstreams, type StaticUpstreamName, forwardInProcess, readWhole } from './in-process';
import { registerIdempotency } from './idempotency';
import { createRateLimiter } from './rate-limit';
import { MALFORMED_PATH_MESSAGE, unsafePathReason } from './path-guard';
import { type UpstreamName, upstreamFor } from './routes-table';
import { drainRefusedBody } from './refused-body';
import {
  apiCacheControl,
  contentSecurityPolicy,
  inlineStylesAllowed,
  newStyleNonce,
  securityHeaders,
} from './security-headers';
import { callerOrUnavailable } from './session';
import { startUpstreamProbes } from './upstream-health';

/** W3C trace context headers, set on each upstream call by the tracing instrumentation. */
const TRACE_HEADERS = new Set(['traceparent', 'tracestate']);

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  redis: Redis;
  /** Upstreams in the gateway's own process (the all-in-one host), reached without a socket. */
  inProcess?: InProcessUpstreams;
}

declare module 'fastify' {
  interface FastifyRequest {
    gatewayCaller: CallerIdentity | null;
    /** The API key the caller authenticated with (`Authorization: Bearer`), or null for a session. */
    gatewayApiKeyId: string | null;
    /** This answer's style nonce: its CSP allows <style> elements that carry it (STYLE_NONCE_HEADER). */
    styleNonce: string;
  }
}

const SERVICE_LABELS: Record<UpstreamName, string> = {
  identity: 'The account service',
  search: 'The search service',
  dip: 'The DIP service',
  sharing: 'The sharing service',
  notifications: 'The notifications service',
};

export function upstreamUrls(config: GatewayConfig): Record<UpstreamName, string> {
  return {
    identity: config.IDENTITY_URL,
    search: config.SEARCH_URL,
    dip: config.DIP_URL,
    sharing: config.SHARING_URL,
    notifications: config.NOTIFICATIONS_URL,
  };
}

/** An upstream's answer as reply-from hands it over HTTP/1. */
interface UpstreamAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  stream: Readable;
}

/** A service that is down or slow becomes a clear JSON 502/503/504, never a hang. */
function upstreamError(label: string) {
  // reply-from types its callbacks for every server flavour; ours is plain HTTP/1.
  return (reply: any, { error }: { error: Error & { statusCode?: number } }): void => {
    const status = error.statusCode === 504 ? 504 : error.statusCode === 503 ? 503 : 502;
    reply.log.warn({ err: error, upstream: label }, 'upstream failed');
    const message =
      status === 504
        ? `${label} took too long to answer. Please try again.`
        : `${label} is temporarily unavailable. Please try again shortly.`;
    // An answer that failed while its body was read has the upstream's headers already: the error is JSON.
    reply.removeHeader('content-length');
    reply.status(status).type('application/json; charset=utf-8').send({ success: false, error: message });
  };
}

export function buildGateway({ config, logger, metrics, redis, inProcess = {} }: GatewayDeps) {
  const upstreams = upstreamUrls(config);
  /**
   * Passes a request on to an upstream: over HTTP at its base URL, or, when it runs in this process,
   * by a direct dispatch to its app. Both send the same headers and body and answer failures alike.
   */
  const forward = (
    upstream: UpstreamName | StaticUpstreamName,
    base: string,
    request: FastifyRequest,
    reply: FastifyReply,
    opts: { body?: Buffer; contentType?: string; forwardIdentity?: boolean; label: string },
  ) => {
    const onError = upstreamError(opts.label);
    const rewriteHeaders = opts.forwardIdentity
      ? (headers: Record<string, unknown>) => forwardHeaders(request, headers)
      : undefined;
    const local = inProcess[upstream];
    if (local) {
      return forwardInProcess(local, request, reply, {
        body: opts.body,
        rewriteHeaders,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      }).catch((error: Error & { statusCode?: number }) => onError(reply, { error }));
    }
    return reply.from(`${base}${request.url}`, {
      ...(opts.body ? { body: opts.body, contentType: opts.contentType } : {}),
      ...(rewriteHeaders ? { rewriteRequestHeaders: (_req, headers) => rewriteHeaders(headers) } : {}),
      onError,
      // reply-from types the answer as a server response; over HTTP/1 it is undici's status, headers and body.
      onResponse: (_request, _reply, answer) => {
        const { statusCode, headers, stream } = answer as unknown as UpstreamAnswer;
        if (!readWhole(request.method, statusCode, headers)) return void reply.send(stream);
        stream.toArray().then(
          (chunks) => reply.send(Buffer.concat(chunks)),
          (error: Error) => onError(reply, { error }),
        );
      },
    });
  };
  // Every path that is neither /api nor a remote is the shell's: it renders the route, or its own 404 page.
  const proxyShell = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendRouteNotFound(request, reply);
    return forward('shell', config.SHELL_URL, request, reply, { label: 'The website' });
  };
  const publicUrl = new URL(config.PUBLIC_URL);
  const https = publicUrl.protocol === 'https:';
  const app = createServiceApp({
    name: 'gateway',
    notFoundHandler: proxyShell,
    logger,
    metrics,
    bodyLimit: config.BODY_LIMIT_BYTES,
    operationalSecret: config.INTERNAL_SECRET,
    metricsToken: config.METRICS_TOKEN,
    fastify: { trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY_HOPS },
    // Readiness is the gateway's own (and its Redis'): upstream state is a metric, not a reason to leave rotation.
    healthChecks: [redisHealthCheck(redis)],
  });
  const upstreamProbes = startUpstreamProbes({ metrics, upstreams });
  app.addHook('onClose', () => upstreamProbes.stop());

  app.register(cookie, { secret: config.COOKIE_SECRET });
  app.register(replyFrom, {
    undici: {
      headersTimeout: config.UPSTREAM_TIMEOUT_MS,
      bodyTimeout: config.UPSTREAM_TIMEOUT_MS,
      connections: 64,
    },
    disableRequestLogging: true,
  });
  app.decorateRequest('gatewayCaller', null);
  app.decorateRequest('gatewayApiKeyId', null);
  app.decorateRequest('styleNonce', '');
  // Every body, JSON included, is passed on as the bytes the client sent, within the size limit. The
  // gateway never parses JSON: parsing and re-serialising it changed what services saw (±1e309 became
  // null, a value the service would refuse) and overflowed the stack on deeply nested input (500).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: config.BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );

  const headers = securityHeaders(https);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(headers);
    reply.header(
      'content-security-policy',
      contentSecurityPolicy(https, { nonce: request.styleNonce, inline: inlineStylesAllowed(request.url) }),
    );
    const cacheControl = apiCacheControl(request.url, reply.getHeader('cache-control'));
    if (cacheControl) reply.header('cache-control', cacheControl);
    if (reply.statusCode === 413) await drainRefusedBody(request.raw);
    return payload;
  });

  // First of the gateway's own checks: every later one (routing, rate limits, forwarding) sees the path as forwarded.
  app.addHook('onRequest', async (request, reply) => {
    request.styleNonce = newStyleNonce();
    const reason = unsafePathReason(request.url);
    if (reason) {
      request.log.warn({ reason }, 'malformed request path refused');
      return reply.status(400).send({ success: false, error: MALFORMED_PATH_MESSAGE });
    }
  });

  // Then forgery: a state-changing call from another site never reaches a service (src/cross-site.ts).
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url;
    if (!path.startsWith('/api/') && !path.startsWith('/dev/mail')) return;
    // An API-key call never reads the cookie, so there is nothing for another site to borrow (src/api-keys.ts).
    if (path.startsWith('/api/') && usesApiKey(request.headers)) return;
    const refusal = crossSiteRefusal(request.method, path, request.headers, publicUrl.origin);
    if (refusal) {
      request.log.warn({ reason: refusal.reason }, 'cross-site request refused');
      return reply.status(refusal.status).send({ success: false, error: refusal.message });
    }
  });

  const rateLimit = createRateLimiter(redis, {
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    max: config.RATE_LIMIT_MAX,
    authMax: config.RATE_LIMIT_AUTH_MAX,
  });
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url;
    if (
      path === '/api' ||
      path.startsWith('/api/') ||
      path.startsWith('/api?') ||
      path.startsWith('/dev/mail')
    ) {
      // A key's calls count against the key's own allowance (checked with the key, in proxyApi).
      if (countedPerKey(request)) return;
      await rateLimit(request, reply);
    }
  });

  /**
   * Forwards the caller's identity; whatever identity headers the client sent are dropped first. So is
   * the client's trace context: with tracing on, the call carries the gateway's own span (a child of
   * the client's), which a second `traceparent` beside it would make unreadable.
   */
  const forwardHeaders = (request: FastifyRequest, headers: Record<string, unknown>) => {
    const clean: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith('x-user-') && name !== IDENTITY_HEADERS.secret && !TRACE_HEADERS.has(name))
        clean[name] = value;
    }
    // The key itself stays at the gateway; the service learns only which key the call came with.
    if (request.gatewayApiKeyId) {
      delete clean.authorization;
      clean[API_KEY_ID_HEADER] = request.gatewayApiKeyId;
    }
    return {
      ...clean,
      ...identityHeaders(request.gatewayCaller, config.INTERNAL_SECRET),
      [REQUEST_ID_HEADER]: request.id,
      [STYLE_NONCE_HEADER]: request.styleNonce,
      // The address as the gateway judged it (see TRUST_PROXY_HOPS), replacing whatever the client claimed.
      'x-forwarded-for': request.ip,
      'x-forwarded-proto': publicUrl.protocol.replace(':', ''),
      'x-forwarded-host': publicUrl.host,
    };
  };

  // reply-from JSON-encodes a body whose type is JSON; handed the bytes with their type, it sends them as they are.
  const bodyAsSent = (request: FastifyRequest) =>
    Buffer.isBuffer(request.body) && request.headers['content-type']
      ? { body: request.body, contentType: request.headers['content-type'] }
      : {};

  const authenticateApiKey = createApiKeyAuthenticator(redis, {
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    max: config.API_KEY_RATE_LIMIT_MAX,
  });
  const idempotent = registerIdempotency(app, redis, {
    ttlSeconds: config.IDEMPOTENCY_TTL_SECONDS,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
  });
  /** The caller by API key (never reading the cookie) or by session; a refused key counts per address. */
  const callerOf = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!usesApiKey(request.headers)) return callerOrUnavailable(request, reply, redis);
    const keyed = await authenticateApiKey(request, reply).catch(async (err: { statusCode?: number }) => {
      if (err.statusCode === 401) await rateLimit(request, reply);
      throw err;
    });
    request.gatewayApiKeyId = keyed.keyId;
    return keyed.caller;
  };

  const proxyApi = async (request: FastifyRequest, reply: FastifyReply) => {
    const upstream = upstreamFor(request.url);
    if (!upstream) return sendRouteNotFound(request, reply, 'API route');
    request.gatewayCaller = await callerOf(request, reply);
    if (await idempotent(request, reply, request.gatewayCaller)) return reply;
    return forward(upstream, upstreams[upstream], request, reply, {
      ...bodyAsSent(request),
      forwardIdentity: true,
      label: SERVICE_LABELS[upstream],
    });
  };
  registerApiDocs(app);
  app.all('/api', proxyApi);
  app.all('/api/*', proxyApi);

  // The development mail catcher (notifications), reachable only when switched on.
  if (config.MAIL_CATCHER_ENABLED) {
    const proxyMail = async (request: FastifyRequest, reply: FastifyReply) =>
      forward('notifications', upstreams.notifications, request, reply, {
        ...bodyAsSent(request),
        forwardIdentity: true,
        label: 'The mail catcher',
      });
    app.all('/dev/mail', proxyMail);
    app.all('/dev/mail/*', proxyMail);
  }

  app.get('/remotes.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return config.REMOTES_JSON;
  });

  const proxyStatic =
    (upstream: StaticUpstreamName, base: string, label: string) =>
    async (request: FastifyRequest, reply: FastifyReply) =>
      forward(upstream, base, request, reply, { label });
  app.get('/mf/search/*', proxyStatic('search-mf', config.SEARCH_REMOTE_URL, 'The search pages'));
  app.get('/mf/dashboard/*', proxyStatic('dashboard-mf', config.DASHBOARD_REMOTE_URL, 'The dashboard pages'));

  // Last of the onSend steps, so the answers kept for Idempotency-Key are the plain bytes (src/compression.ts).
  app.addHook('onSend', async (request, reply, payload) => compressAnswer(request, reply, payload));
  return app;
}
