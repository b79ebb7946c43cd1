import {
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  type SessionRecord,
  sessionKey,
  sessionTtlSeconds,
} from '@lsp/contracts';
import { type CallerIdentity, HttpError } from '@lsp/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { withinRedisWait } from './redis-wait';

/** What a signed-in caller is told while their session cannot be read (Redis down or not answering). */
export const SESSION_UNAVAILABLE_MESSAGE =
  'We could not check your sign-in just now. Please try again in a few seconds.';
/** How long the answer asks the caller to wait before trying again. */
export const SESSION_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Resolves the signed session cookie to the caller. Each resolved request slides the expiry
 * forward, but never past the session's absolute end: a session past it is deleted and the request
 * is anonymous. A missing, badly signed or expired cookie is simply anonymous.
 */
export async function resolveSession(request: FastifyRequest, redis: Redis): Promise<CallerIdentity | null> {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const key = sessionKey(unsigned.value);
  const [[, text]] = (await withinRedisWait(
    redis.multi().get(key).expire(key, SESSION_TTL_SECONDS, 'XX').exec(),
    'session lookup',
  )) as [[Error | null, string | null], unknown];
  if (!text) return null;
  const session = JSON.parse(text) as SessionRecord;
  const ttl = sessionTtlSeconds(session);
  if (ttl <= 0) {
    await withinRedisWait(redis.del(key), 'ending a session');
    return null;
  }
  // In its last idle period the slide above went too far: bring it back to the absolute end.
  if (ttl < SESSION_TTL_SECONDS) await withinRedisWait(redis.expire(key, ttl), 'session expiry');
  return {
    userId: session.userId,
    email: session.email,
    name: session.name,
    verified: session.verified,
    roles: session.roles ?? [],
  };
}

/**
 * The caller of an /api request. A request with a session cookie whose session cannot be read (Redis
 * down, or silent for longer than REDIS_WAIT_MS) is answered 503 with Retry-After: passing it on as
 * anonymous would tell a signed-in person 'Not signed in', and a guess either way is wrong.
 */
export async function callerOrUnavailable(
  request: FastifyRequest,
  reply: FastifyReply,
  redis: Redis,
): Promise<CallerIdentity | null> {
  try {
    return await resolveSession(request, redis);
  } catch (err) {
    request.log.error({ err }, 'session lookup failed');
    reply.header('retry-after', String(SESSION_UNAVAILABLE_RETRY_AFTER_SECONDS));
    throw new HttpError(503, SESSION_UNAVAILABLE_MESSAGE, {
      retryAfterSeconds: SESSION_UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
  }
}
