import { tooManyRequests } from '@lsp/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

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

/**
 * Counts the request and sets the window's expiry in one round trip (a MULTI of INCR and PEXPIRE is
 * four commands, and each costs the gateway a socket write on every API request). The expiry is set
 * only with the first count, so it is never pushed past the window's end. Registered as a command, so
 * ioredis sends its SHA (EVALSHA) rather than the script on every request, and the script again only
 * when a restarted Redis no longer knows it.
 */
const COUNT_IN_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

export interface RateLimitOptions {
  windowSeconds: number;
  max: number;
  authMax: number;
}

/**
 * Fixed-window counters per client address in Redis, so every gateway instance counts against the
 * same allowance. When Redis does not answer the request is let through (logged): the limits
 * protect the services, they must not take the site down with Redis.
 */
export function createRateLimiter(redis: Redis, options: RateLimitOptions) {
  redis.defineCommand('countInWindow', { numberOfKeys: 1, lua: COUNT_IN_WINDOW });
  const counter = redis as Redis & { countInWindow(key: string, windowMs: number): Promise<number> };
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? '';
    const group = AUTH_PATHS.has(path) ? 'auth' : 'api';
    const limit = group === 'auth' ? options.authMax : options.max;
    const windowMs = options.windowSeconds * 1000;
    const window = Math.floor(Date.now() / windowMs);
    const key = `gateway-rate:${group}:${request.ip}:${window}`;
    let count: number;
    try {
      count = Number(await counter.countInWindow(key, windowMs));
    } catch (err) {
      request.log.warn({ err }, 'rate limit store unavailable; request allowed');
      return;
    }
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - Date.now()) / 1000));
    reply.header('x-ratelimit-limit', String(limit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit - count)));
    reply.header('x-ratelimit-reset', String(resetSeconds));
    if (count > limit) {
      reply.header('retry-after', String(resetSeconds));
      throw tooManyRequests(RATE_LIMITED_MESSAGE);
    }
  };
}
