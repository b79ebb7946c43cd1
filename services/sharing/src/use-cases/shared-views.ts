import { type DipSharedView, dipTermsOf } from '@lsp/contracts';
import type { DipProjection, RecipientShare } from '../data/collections';
import { isExpired } from '../domain/expiry';

/** Most entries a list of shares answers at once ('Shared with me', the owner's recipients). */
export const SHARED_LIST_LIMIT = 1000;

/** How a recipient came to read a shared DIP. */
export type AccessMethod = 'signed-link' | 'open-link' | 'recipient';

/** The DIP as a recipient reads it: its detail and the snapshot, never the owner's link state. */
function dipForRecipient(dip: DipProjection, now: Date): DipSharedView {
  const expiresAt = dip.expiresAt.toISOString();
  return {
    id: dip._id,
    reference: dip.quoteCode,
    quoteCode: dip.quoteCode,
    quote_code: dip.quoteCode,
    status: isExpired(dip.expiresAt, now) ? 'expired' : 'active',
    expiresAt,
    expires_at: expiresAt,
    createdAt: dip.createdAt.toISOString(),
    shareSlug: dip.shareSlug,
    share_slug: dip.shareSlug,
    ...dipTermsOf(dip.snapshot),
    snapshot: dip.snapshot,
  };
}

/** A shared DIP with the share it reached the recipient through. */
export function sharedDipAnswer(
  dip: DipProjection,
  entry: RecipientShare,
  accessMethod: AccessMethod,
  now: Date,
) {
  return {
    success: true as const,
    dip: dipForRecipient(dip, now),
    shareInfo: {
      shareId: entry._id,
      shared_by: entry.sharedBy,
      shared_at: entry.sharedAt.toISOString(),
      message: entry.message,
    },
    permissions: { readOnly: true as const, ...entry.permissions },
    accessMethod,
  };
}

/** One entry of 'Shared with me'. */
export function sharedItemOf(entry: RecipientShare, shareSlug: string | null, now: Date) {
  const expiresAt = entry.dipExpiresAt.toISOString();
  const sharedAt = entry.sharedAt.toISOString();
  return {
    shareId: entry._id,
    shareSlug,
    dipId: entry.dipId,
    isViewed: entry.viewedAt !== null,
    isExpired: isExpired(entry.dipExpiresAt, now),
    expiresAt,
    sharedBy: entry.sharedBy,
    sharedAt,
    message: entry.message,
    quoteCode: entry.quoteCode,
    snapshot: entry.summary,
    id: entry._id,
    share_slug: shareSlug,
    quote_code: entry.quoteCode,
    status: entry.viewedAt === null ? ('new' as const) : ('viewed' as const),
    from: { name: entry.sharedBy, email: entry.sharedByEmail },
    expires_at: expiresAt,
  };
}
