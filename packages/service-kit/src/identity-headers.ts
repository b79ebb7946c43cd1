import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The caller's identity as the gateway forwards it. */
export interface CallerIdentity {
  userId: string;
  email: string;
  name: string;
  verified: boolean;
  /** Roles the session carries (`ops`); empty or absent for most people. */
  roles?: string[];
}

export const IDENTITY_HEADERS = {
  secret: 'x-internal-secret',
  userId: 'x-user-id',
  email: 'x-user-email',
  name: 'x-user-name',
  verified: 'x-user-verified',
  /** Comma-separated roles of the session. */
  roles: 'x-user-roles',
} as const;

/** Whether two secrets are equal, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the request carries the gateway's internal secret (compared in constant time). */
export function fromGateway(headers: IncomingHttpHeaders, internalSecret: string): boolean {
  const secret = headers[IDENTITY_HEADERS.secret];
  return typeof secret === 'string' && sameSecret(secret, internalSecret);
}

/**
 * Identity headers count only when the request carries the gateway's internal secret; otherwise a
 * client could claim any user id by setting `x-user-id` itself.
 */
export function readCallerIdentity(
  headers: IncomingHttpHeaders,
  internalSecret: string,
): CallerIdentity | null {
  const secret = headers[IDENTITY_HEADERS.secret];
  if (typeof secret !== 'string' || !sameSecret(secret, internalSecret)) return null;
  const userId = headers[IDENTITY_HEADERS.userId];
  if (typeof userId !== 'string' || userId === '') return null;
  const text = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? decodeURIComponent(value) : '';
  };
  return {
    userId,
    email: text(IDENTITY_HEADERS.email),
    name: text(IDENTITY_HEADERS.name),
    verified: headers[IDENTITY_HEADERS.verified] === 'true',
    roles: text(IDENTITY_HEADERS.roles)
      .split(',')
      .map((role) => role.trim())
      .filter(Boolean),
  };
}

/** The headers the gateway sets for an authenticated caller (values URI-encoded: names may hold any text). */
export function identityHeaders(
  identity: CallerIdentity | null,
  internalSecret: string,
): Record<string, string> {
  const headers: Record<string, string> = { [IDENTITY_HEADERS.secret]: internalSecret };
  if (identity) {
    headers[IDENTITY_HEADERS.userId] = identity.userId;
    headers[IDENTITY_HEADERS.email] = encodeURIComponent(identity.email);
    headers[IDENTITY_HEADERS.name] = encodeURIComponent(identity.name);
    headers[IDENTITY_HEADERS.verified] = String(identity.verified);
    if (identity.roles?.length)
      headers[IDENTITY_HEADERS.roles] = encodeURIComponent(identity.roles.join(','));
  }
  return headers;
}
