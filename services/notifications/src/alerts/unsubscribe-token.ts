import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The unsubscribe link's token: the user id and its HMAC, so the link works without signing in and
 * cannot be forged for someone else. The key is derived from the internal secret for this one use
 * (HKDF with its own label), so no new secret has to be deployed and the internal secret itself never
 * signs anything a user holds.
 */
export function unsubscribeKey(internalSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', internalSecret, '', 'repricing-alerts-unsubscribe', 32));
}

const mac = (userId: string, key: Buffer) => createHmac('sha256', key).update(userId).digest();

export function signUnsubscribeToken(userId: string, key: Buffer): string {
  return `${Buffer.from(userId).toString('base64url')}.${mac(userId, key).toString('base64url')}`;
}

/** The user id a token was signed for, or null for anything else. */
export function verifyUnsubscribeToken(token: string, key: Buffer): string | null {
  const [id, signature, ...rest] = token.split('.');
  if (!id || !signature || rest.length) return null;
  const userId = Buffer.from(id, 'base64url').toString();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(userId, key);
  return given.length === expected.length && timingSafeEqual(given, expected) && userId ? userId : null;
}
