import {
  API_KEY_MESSAGES,
  API_KEY_PATTERN,
  type ApiKeyRecord,
  PUBLIC_API_ROUTES,
  type RouteContract,
  apiKeyLastUsedKey,
  apiKeyLookupKey,
  moreSpecific,
  pathSegments,
  segmentsMatch,
} from '@lsp/contracts';
import { type CallerIdentity, HttpError, RedisRateLimiter } from '@lsp/service-kit';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { withinRedisWait } from './redis-wait';

/** How long the time a key was last used is kept after its last use. */
const LAST_USED_KEPT_SECONDS = 400 * 24 * 3600;
/** The name of the per-key policy in the RateLimit-Policy and RateLimit headers. */
const KEY_POLICY = 'api-key';
/** What a key's caller is told while its record cannot be read (Redis down or not answering). */
export const API_KEY_UNAVAILABLE_MESSAGE =
  'We could not check your API key just now. Please try again in a few seconds.';
const API_KEY_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const KEY_RATE_LIMITED_MESSAGE = 'Too many requests with this API key. Wait `Retry-After` seconds.';

/**
 * Whether the request authenticates with an API key: it carries an Authorization header. Such a call is
 * judged by its key alone (the session cookie is never read), so the cross-site checks, which protect
 * the cookie, do not apply: a page on another site cannot make a browser send an Authorization header
 * without a CORS preflight the gateway never grants.
 */
export function usesApiKey(headers: IncomingHttpHeaders): boolean {
  return headers.authorization !== undefined;
}

/**
 * Whether the call is counted against its key's allowance rather than its address's: it carries an
 * Authorization header and goes to a route a key may call. Anything else with the header (the docs, an
 * unknown path) counts per address like any call, so the header is no way around the address's limit.
 */
export function countedPerKey(request: FastifyRequest): boolean {
  return usesApiKey(request.headers) && Boolean(declaredRouteOf(request.method, request.url)?.apiKeyScope);
}

/** The key of `Authorization: Bearer <key>`, or null when the header has another form. */
export function bearerKeyOf(headers: IncomingHttpHeaders): string | null {
  return /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1] ?? null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The declared route a concrete request fits (method and path), the most specific of several. */
export function declaredRouteOf(method: string, url: string): RouteContract | null {
  const segments = pathSegments(url.split('?')[0] ?? '');
  let best: RouteContract | null = null;
  for (const route of PUBLIC_API_ROUTES) {
    if (route.method !== method) continue;
    const declared = pathSegments(route.path);
    if (segmentsMatch(declared, segments) && (!best || moreSpecific(declared, pathSegments(best.path)))) {
      best = route;
    }
  }
  return best;
}

export interface ApiKeyCaller {
  caller: CallerIdentity;
  keyId: string;
}

/**
 * Authenticates, scopes and counts an API-key call. A missing, unknown, revoked or expired key is 401;
 * a route the key's scopes do not cover (or one no key may call) is 403; over the key's allowance 429
 * with Retry-After. Every answer to a valid key carries the ratelimit-headers draft's RateLimit-Policy
 * and RateLimit headers. The key acts as its user: services apply every owner check unchanged.
 */
export function createApiKeyAuthenticator(redis: Redis, options: { windowSeconds: number; max: number }) {
  const limiter = new RedisRateLimiter(redis, { allowWhenUnavailable: true });

  /** The key's record when the key is whole, known, unrevoked and unexpired; otherwise null. */
  async function recordFor(key: string): Promise<ApiKeyRecord | null> {
    const id = API_KEY_PATTERN.exec(key)?.[1];
    if (!id) return null;
    const text = await withinRedisWait(redis.get(apiKeyLookupKey(id)), 'api key lookup');
    if (!text) return null;
    const record = JSON.parse(text) as ApiKeyRecord;
    // The id only finds the record; the secret is proved by its hash, compared in constant time.
    if (!timingSafeEqual(sha256(key), Buffer.from(record.digest, 'hex'))) return null;
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= Date.now()) return null;
    return record;
  }

  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<ApiKeyCaller> {
    const key = bearerKeyOf(request.headers);
    if (!key) throw new HttpError(401, API_KEY_MESSAGES.missingKey);
    let record: ApiKeyRecord | null;
    try {
      record = await recordFor(key);
    } catch (err) {
      // Neither 401 (the key may be good) nor a guess: the caller is asked to try again.
      request.log.error({ err }, 'api key lookup failed');
      reply.header('retry-after', String(API_KEY_UNAVAILABLE_RETRY_AFTER_SECONDS));
      throw new HttpError(503, API_KEY_UNAVAILABLE_MESSAGE, {
        retryAfterSeconds: API_KEY_UNAVAILABLE_RETRY_AFTER_SECONDS,
      });
    }
    if (!record) {
      request.log.warn('api key refused');
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
      throw new HttpError(401, API_KEY_MESSAGES.invalidKey);
    }
    const route = declaredRouteOf(request.method, request.url);
    if (!route?.apiKeyScope) throw new HttpError(403, API_KEY_MESSAGES.notForKeys);
    if (!record.scopes.includes(route.apiKeyScope)) {
      reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${route.apiKeyScope}"`);
      throw new HttpError(403, API_KEY_MESSAGES.outOfScope(route.apiKeyScope));
    }
    const verdict = await withinRedisWait(
      limiter.hit({
        key: `gateway-rate:api-key:${record.id}`,
        limit: options.max,
        windowMs: options.windowSeconds * 1000,
        windows: 'clock',
      }),
      'api key rate limit',
    ).catch((err: unknown) => ({ counted: false as const, storeError: err }));
    if (verdict.counted) {
      reply.header('ratelimit-policy', `"${KEY_POLICY}";q=${verdict.limit};w=${options.windowSeconds}`);
      reply.header('ratelimit', `"${KEY_POLICY}";r=${verdict.remaining};t=${verdict.resetSeconds}`);
      if (!verdict.allowed) {
        reply.header('retry-after', String(verdict.resetSeconds));
        throw new HttpError(429, KEY_RATE_LIMITED_MESSAGE, { retryAfterSeconds: verdict.resetSeconds });
      }
    } else {
      request.log.warn({ err: verdict.storeError }, 'api key rate limit store unavailable; request allowed');
    }
    // When the key was last used is for its owner's list: never a reason to fail the call.
    redis
      .set(apiKeyLastUsedKey(record.id), new Date().toISOString(), 'EX', LAST_USED_KEPT_SECONDS)
      .catch((err: unknown) => request.log.warn({ err }, 'api key last use not recorded'));
    return {
      keyId: record.id,
      caller: {
        userId: record.userId,
        email: record.email,
        name: record.name,
        verified: record.verified,
        // A key never carries a session's roles: the operations console stays a signed-in person's.
        roles: [],
      },
    };
  };
}
