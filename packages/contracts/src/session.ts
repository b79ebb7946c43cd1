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
}

export const SESSION_COOKIE = 'sid';
export const SESSION_KEY_PREFIX = 'session:';
/** Sliding expiry: each request through the gateway pushes it forward. */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const sessionKey = (sessionId: string) => `${SESSION_KEY_PREFIX}${sessionId}`;
