import { SESSION_COOKIE } from '@lsp/contracts';
import { HttpError } from '@lsp/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityConfig } from '../config';

/** How long sessions last: idle (sliding forward with use) and at most from sign-in. */
export interface SessionLifetimes {
  ttlSeconds: number;
  absoluteSeconds: number;
}

/** The signed `sid` cookie: how it is set, read back and cleared. */
export function sessionCookie(config: Pick<IdentityConfig, 'PUBLIC_URL'>, sessions: SessionLifetimes) {
  const options = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: new URL(config.PUBLIC_URL).protocol === 'https:',
    signed: true,
    maxAge: sessions.ttlSeconds,
  };
  const { signed: _signed, maxAge: _maxAge, ...clearOptions } = options;
  const sessionIdOf = (request: FastifyRequest): string | null => {
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : null;
  };
  /** A new session's cookie: never longer than the idle TTL nor the session's absolute lifetime. */
  const setNew = (reply: FastifyReply, sessionId: string) =>
    reply.setCookie(SESSION_COOKIE, sessionId, {
      ...options,
      maxAge: Math.min(sessions.ttlSeconds, sessions.absoluteSeconds),
    });
  /** The cookie of a session still open, made to last as long as the session has left. */
  const renew = (reply: FastifyReply, sessionId: string, secondsLeft: number) =>
    reply.setCookie(SESSION_COOKIE, sessionId, { ...options, maxAge: secondsLeft });
  const clear = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, clearOptions);
  return { options, sessionIdOf, setNew, renew, clear };
}

export type SessionCookie = ReturnType<typeof sessionCookie>;

/** 429s say when to come back, in the body and in Retry-After. */
export function withRetryAfter(reply: FastifyReply, err: unknown): never {
  const seconds = (err as HttpError).details?.retryAfterSeconds;
  if (err instanceof HttpError && err.statusCode === 429 && typeof seconds === 'number') {
    reply.header('retry-after', String(seconds));
  }
  throw err;
}
