import { RedisRateLimiter, tooManyRequests } from '@lsp/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { withinRedisWait } from './redis-wait';

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a moment and try again.';

/** Sign-in, sign-up, verification and passwords: where guessing and spam happen, so a smaller allowance. */
const AUTH_PATHS = new Set([
  '/api/login',
  '/api/auth/register',
  '/api/create-account',
  '/api/auth/resend-verification',
  '/api/verify-email',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
  '/api/auth/change-password',
]);

export interface RateLimitOptions {
  windowSeconds: number;
  max: number;
  authMax: number;
}

/**
 * Fixed-window counters per client address in Redis (service-kit's limiter), so every gateway instance
 * counts against the same allowance. When Redis does not answer, or not within REDIS_WAIT_MS, the
 * request is let through (logged): the limits protect the services, they must not take the site down
 * with Redis.
 *
 * The API allowance is large (600 a minute by default), so each instance takes a thirtieth of it (at
 * most 20) from Redis at a time and judges the next requests itself: one Redis round trip per 20
 * searches instead of one per search, for at most 19 requests of slack per instance. Sign-in and
 * sign-up, where the allowance is small and guessing is the threat, count every request in Redis.
 */
export function createRateLimiter(redis: Redis, options: RateLimitOptions) {
  const limiter = new RedisRateLimiter(redis, { allowWhenUnavailable: true });
  const apiLease = Math.min(20, Math.max(1, Math.floor(options.max / 30)));
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? '';
    const group = AUTH_PATHS.has(path) ? 'auth' : 'api';
    let verdict;
    try {
      verdict = await withinRedisWait(
        limiter.hit({
          key: `gateway-rate:${group}:${request.ip}`,
          limit: group === 'auth' ? options.authMax : options.max,
          windowMs: options.windowSeconds * 1000,
          windows: 'clock',
          lease: group === 'auth' ? 1 : apiLease,
        }),
        'rate limit',
      );
    } catch (err) {
      request.log.warn({ err }, 'rate limit store did not answer in time; request allowed');
      return;
    }
    if (!verdict.counted) {
      request.log.warn({ err: verdict.storeError }, 'rate limit store unavailable; request allowed');
      return;
    }
    reply.header('x-ratelimit-limit', String(verdict.limit));
    reply.header('x-ratelimit-remaining', String(verdict.remaining));
    reply.header('x-ratelimit-reset', String(verdict.resetSeconds));
    if (!verdict.allowed) {
      reply.header('retry-after', String(verdict.resetSeconds));
      throw tooManyRequests(RATE_LIMITED_MESSAGE);
    }
  };
}
