import { randomBytes, randomInt } from 'node:crypto';

/**
 * Quote codes are read aloud on the phone and typed from paper: no 0/O, 1/I/L, so no two characters
 * are confused, and two groups of four ('K7MQ-X9PA') are easy to say. 31^8 = 8.5e11 codes; the unique
 * index and a retry make a collision harmless rather than impossible. The PDF is 'DIP-{code}.pdf'.
 */
export const QUOTE_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const QUOTE_CODE_PATTERN =
  /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}$/;

export function newQuoteCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) {
    if (i === 4) code += '-';
    code += QUOTE_CODE_ALPHABET[randomInt(QUOTE_CODE_ALPHABET.length)];
  }
  return code;
}

/** 128 random bits, base64url: the unguessable part of the share link (never UUID-shaped). */
export function newShareSlug(): string {
  return randomBytes(16).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isDipId = (value: string) => UUID.test(value);
export const isShareSlug = (value: string) => /^[A-Za-z0-9_-]{22}$/.test(value);
