import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '@lsp/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityConfig } from '../config';

/**
 * OWASP's device cookie: a browser that has signed in to an account carries a cookie naming that
 * account, signed with COOKIE_SECRET. Its sign-in failures for that account count against the cookie
 * (the device) only, so failures from elsewhere, which lock the account for untrusted clients, never
 * lock out a browser its owner has used before.
 */
export const DEVICE_COOKIE = 'device';

/** The cookie is sent to every /api call that checks a password: sign-in and change-password. */
const DEVICE_COOKIE_PATH = '/api';

/** The account a device cookie names: a digest of the email, so the cookie does not show the address. */
export const accountKeyOf = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 32);

const VALUE_PATTERN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{22})\.(\d{1,12})$/;

/** `clock` decides when a cookie was issued and whether it is still within its lifetime. */
export function deviceCookies(
  config: Pick<IdentityConfig, 'PUBLIC_URL' | 'DEVICE_COOKIE_LIFETIME_DAYS'>,
  clock: Clock,
) {
  const lifetimeSeconds = config.DEVICE_COOKIE_LIFETIME_DAYS * 24 * 3600;
  const options = {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: new URL(config.PUBLIC_URL).protocol === 'https:',
    signed: true,
    maxAge: lifetimeSeconds,
  };

  /**
   * The device the request comes from, when it carries a valid device cookie for this email: signed
   * by us, naming this account, and issued within its lifetime. Null for an untrusted client.
   */
  function trustedDevice(request: FastifyRequest, email: string, now = clock.now().getTime()): string | null {
    const raw = request.cookies[DEVICE_COOKIE];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return null;
    const match = VALUE_PATTERN.exec(unsigned.value);
    if (!match) return null;
    const [, account, nonce, issuedAt] = match;
    if (account !== accountKeyOf(email)) return null;
    const ageSeconds = now / 1000 - Number(issuedAt);
    if (ageSeconds < 0 || ageSeconds > lifetimeSeconds) return null;
    return nonce!;
  }

  /** A new device cookie for the account just signed in to (a fresh nonce each time). */
  function issue(reply: FastifyReply, email: string, now = clock.now().getTime()): void {
    const nonce = randomBytes(16).toString('base64url');
    const value = `${accountKeyOf(email)}.${nonce}.${Math.floor(now / 1000)}`;
    reply.setCookie(DEVICE_COOKIE, value, options);
  }

  return { trustedDevice, issue, options };
}

export type DeviceCookies = ReturnType<typeof deviceCookies>;
