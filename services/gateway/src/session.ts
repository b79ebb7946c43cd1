import { SESSION_COOKIE, SESSION_TTL_SECONDS, type SessionRecord, sessionKey } from '@lsp/contracts';
import type { CallerIdentity } from '@lsp/service-kit';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Resolves the signed session cookie to the caller. Each resolved request slides the expiry
 * forward. A missing, badly signed or expired cookie is simply anonymous.
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
  return { userId: session.userId, email: session.email, name: session.name, verified: session.verified };
}
