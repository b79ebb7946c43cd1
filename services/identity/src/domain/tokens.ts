import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session ids and verification tokens. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Tokens are stored only as this hash: a leaked database holds no usable link. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
