/**
 * The session record identity writes to Redis and the gateway reads. Only these two services know
 * it; other services see the caller through the gateway's identity headers.
 */
export interface SessionRecord {
  userId: string;
  email: string;
  name: string;
  verified: boolean;
  createdAt: string;
  /**
   * The absolute end of the session (ISO time): however often it is used, it ends here. Sessions
   * written before this field existed end at createdAt + SESSION_ABSOLUTE_TTL_SECONDS.
   */
  expiresAt?: string;
  /** Roles granted at sign-in (`ops` from OPS_EMAILS); absent on sessions written before roles existed. */
  roles?: string[];
}

export const SESSION_COOKIE = 'sid';
export const SESSION_KEY_PREFIX = 'session:';
/** Sliding expiry: each request through the gateway pushes it forward. */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** The default absolute lifetime: sliding never carries a session past this (identity's config may lower it). */
export const SESSION_ABSOLUTE_TTL_SECONDS = 30 * 24 * 3600;

/** When a session ends however it is used: its own expiresAt, else createdAt plus the default lifetime. */
export function sessionAbsoluteEnd(record: Pick<SessionRecord, 'createdAt' | 'expiresAt'>): number {
  const explicit = record.expiresAt ? Date.parse(record.expiresAt) : Number.NaN;
  if (Number.isFinite(explicit)) return explicit;
  const created = Date.parse(record.createdAt);
  return (Number.isFinite(created) ? created : 0) + SESSION_ABSOLUTE_TTL_SECONDS * 1000;
}

/** Seconds a session may still live: the idle TTL, capped by its absolute end (0 when it has ended). */
export function sessionTtlSeconds(
  record: Pick<SessionRecord, 'createdAt' | 'expiresAt'>,
  idleSeconds = SESSION_TTL_SECONDS,
  now = Date.now(),
): number {
  const left = Math.floor((sessionAbsoluteEnd(record) - now) / 1000);
  return Math.max(0, Math.min(idleSeconds, left));
}

export const sessionKey = (sessionId: string) => `${SESSION_KEY_PREFIX}${sessionId}`;
