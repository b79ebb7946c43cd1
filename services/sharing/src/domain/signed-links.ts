import { sameSecret } from '@lsp/service-kit';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { SharingConfig } from '../config';

/** What `e` carries for the open link: not an email, so it never matches a targeted share. */
export const OPEN_LINK_RECIPIENT = 'open';

export const encodeRecipient = (email: string) => Buffer.from(email, 'utf8').toString('base64url');

export function decodeRecipient(e: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(e)) return null;
  const text = Buffer.from(e, 'base64url').toString('utf8');
  return text.length > 0 && text.length <= 254 ? text.trim().toLowerCase() : null;
}

/**
 * The HMAC over slug, email and expiry. A link without an expiry of its own (`null`) lasts as long as
 * its DIP: it is signed with the word `dip` in the expiry's place, so an owner who extends the DIP
 * extends every such link without re-sending it. The open link also signs a random nonce drawn each
 * time it is made after a revocation, so a revoked open link's URL never opens again.
 */
function sign(
  secret: string,
  slug: string,
  email: string,
  expiresAt: Date | null,
  nonce: string | null | undefined,
): string {
  const signed = `${slug}|${email}|${expiresAt ? expiresAt.toISOString() : 'dip'}`;
  return createHmac('sha256', secret)
    .update(nonce ? `${signed}|${nonce}` : signed)
    .digest('base64url');
}

/** A fresh nonce for an open link made anew: its URL differs from every URL it had before. */
export const newLinkNonce = () => randomBytes(16).toString('base64url');

/** A salted SHA-256 of the signature: what the database keeps instead of the link. */
export function hashToken(sig: string, salt: string): string {
  return createHash('sha256').update(salt).update(sig).digest('hex');
}

export class ShareLinkSigner {
  constructor(
    private readonly config: Pick<
      SharingConfig,
      'PUBLIC_URL' | 'SHARE_LINK_SECRET' | 'SHARE_LINK_PREVIOUS_SECRET' | 'SHARE_LINK_PREVIOUS_SECRET_UNTIL'
    >,
  ) {}

  /** The link, and the salted hash and salt to store for it. */
  issue(slug: string, email: string, expiresAt: Date | null, nonce: string | null = null) {
    const sig = sign(this.config.SHARE_LINK_SECRET, slug, email, expiresAt, nonce);
    const tokenSalt = randomBytes(16).toString('hex');
    const url = new URL(`/shared/${encodeURIComponent(slug)}`, this.config.PUBLIC_URL);
    url.searchParams.set('e', encodeRecipient(email));
    url.searchParams.set('sig', sig);
    return { url: url.toString(), tokenHash: hashToken(sig, tokenSalt), tokenSalt };
  }

  /**
   * True when `sig` is the signature of this slug, email and expiry under the current secret, or the
   * previous one while its grace period lasts, and matches the stored hash. Constant-time throughout.
   */
  verify(
    sig: string,
    link: {
      slug: string;
      email: string;
      expiresAt: Date | null;
      tokenHash: string;
      tokenSalt: string;
      linkNonce?: string | null;
    },
    now: Date,
  ): boolean {
    const secrets = [this.config.SHARE_LINK_SECRET];
    const previous = this.config.SHARE_LINK_PREVIOUS_SECRET;
    const until = this.config.SHARE_LINK_PREVIOUS_SECRET_UNTIL;
    if (previous && until && now.getTime() < new Date(until).getTime()) secrets.push(previous);
    let signed = false;
    for (const secret of secrets) {
      // Every candidate is compared, so the time taken does not say which secret matched.
      if (sameSecret(sig, sign(secret, link.slug, link.email, link.expiresAt, link.linkNonce))) signed = true;
    }
    const stored = sameSecret(hashToken(sig, link.tokenSalt), link.tokenHash);
    return signed && stored;
  }
}
