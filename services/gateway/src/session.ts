import {
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  type SessionRecord,
  sessionKey,
  sessionTtlSeconds,
} from '@lsp/contracts';
import type { CallerIdentity } from '@lsp/service-kit';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

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
  const [[, text]] = (await redis.multi().get(key).expire(key, SESSION_TTL_SECONDS, 'XX').exec()) as [
    [Error | null, string | null],
    unknown,
  ];
  if (!text) return null;
  const session = JSON.parse(text) as SessionRecord;
  const ttl = sessionTtlSeconds(session);
  if (ttl <= 0) {
    await redis.del(key);
    return null;
  }
  // In its last idle period the slide above went too far: bring it back to the absolute end.
  if (ttl < SESSION_TTL_SECONDS) await redis.expire(key, ttl);
  return {
    userId: session.userId,
    email: session.email,
    name: session.name,
    verified: session.verified,
    roles: session.roles ?? [],
  };
}
