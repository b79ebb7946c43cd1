import type {
  DealShareChannel,
  DipSnapshot,
  InviteType,
  LoanType,
  SharePermissions,
  SharedSnapshotSummary,
  ShareStatus,
} from '@lsp/contracts';
import type { Connection } from 'mongoose';

/** What sharing knows of a DIP, kept only from dip.* events (applied when their version is newer). */
export interface DipProjection {
  _id: string;
  ownerUserId: string;
  ownerName: string;
  ownerEmail: string;
  quoteCode: string;
  /** The current link slug; null while the owner has revoked the link. */
  shareSlug: string | null;
  shareUrl: string | null;
  status: 'active' | 'revoked';
  expiresAt: Date;
  createdAt: Date;
  version: number;
  snapshot: DipSnapshot;
  /** When the owner last revoked the link, as far as sharing has heard (absent or null: never). */
  linkRevokedAt?: Date | null;
}

/**
 * A signed link (the spec's `dip_shares`): one per DIP, invite type and recipient email (null for the
 * open link). Only a salted hash of the link's signature is kept.
 */
export interface DipShare {
  _id: string;
  dipId: string;
  /**
   * The DIP's slug the link was signed for: once the slug is regenerated the URL no longer opens; the
   * open link is then revoked, a targeted share keeps its recipient's access.
   */
  shareSlug: string;
  ownerUserId: string;
  recipientUserId: string | null;
  recipientEmail: string | null;
  status: ShareStatus;
  tokenHash: string;
  tokenSalt: string;
  inviteType: InviteType;
  permissions: SharePermissions;
  message: string | null;
  createdAt: Date;
  /**
   * The link's own expiry, when the owner gave the open link one; null for a link that lasts as long
   * as its DIP (every targeted share), so extending the DIP extends it.
   */
  expiresAt: Date | null;
  lastAccessAt: Date | null;
  /**
   * The open link's random nonce, signed into its URL and drawn anew whenever the open link is made
   * after a revocation, so a revoked URL never opens again (absent: a link signed without one).
   */
  linkNonce?: string | null;
}

/**
 * A DIP in someone's 'Shared with me' list (the spec's `online_dip_shares`): one per DIP and email.
 * A targeted share makes one at once (same id as its link); an open link makes one for whoever opens it.
 * The DIP's summary is copied in so the list is one indexed read.
 */
export interface RecipientShare {
  _id: string;
  dipId: string;
  linkId: string;
  email: string;
  recipientUserId: string | null;
  inviteType: InviteType;
  status: 'active' | 'revoked';
  sharedBy: string;
  sharedByEmail: string;
  ownerUserId: string;
  message: string | null;
  sharedAt: Date;
  viewedAt: Date | null;
  quoteCode: string;
  dipExpiresAt: Date;
  permissions: SharePermissions;
  summary: SharedSnapshotSummary;
}

/**
 * The spec's `shared_deals`: a lender offer and a note sent to an email, opened by its token; or, shared
 * on WhatsApp, Facebook or LinkedIn, a link to it with no recipient (`referralEmail` null).
 */
export interface SharedDeal {
  _id: string;
  referralEmail: string | null;
  /** How it was shared; absent on deals made before there was a choice (email). */
  channel?: DealShareChannel;
  referrerId: string;
  referrerName: string;
  loanType: LoanType;
  /** The offer as JSON text, exactly as the page reads it back (`loan_data`). */
  loanData: string;
  signupToken: string;
  note: string | null;
  viewed: boolean;
  viewedAt: Date | null;
  linkedUserId: string | null;
  createdAt: Date;
}

/** The spec's `referrals`. */
export interface Referral {
  _id: string;
  referrerUserId: string;
  referrerName: string;
  referralEmail: string;
  message: string | null;
  createdAt: Date;
}

export interface ShareFunnelRecord {
  _id: string;
  event: string;
  dipId: string | null;
  shareId: string | null;
  context: string | null;
  duration: number | null;
  metadata: Record<string, unknown> | null;
  clientTimestamp: string | null;
  sessionId: string | null;
  correlationId: string | null;
  userId: string | null;
  createdAt: Date;
}

/** Share-funnel events are kept 90 days. */
export const SHARE_FUNNEL_RETENTION_SECONDS = 90 * 24 * 3600;

export function sharingCollections(connection: Connection) {
  return {
    dips: connection.collection<DipProjection>('dips'),
    dipShares: connection.collection<DipShare>('dip_shares'),
    recipientShares: connection.collection<RecipientShare>('online_dip_shares'),
    sharedDeals: connection.collection<SharedDeal>('shared_deals'),
    referrals: connection.collection<Referral>('referrals'),
    shareFunnel: connection.collection<ShareFunnelRecord>('share_funnel_events'),
  };
}
export type SharingCollections = ReturnType<typeof sharingCollections>;

/** The indexes the routes and handlers query by, created before the first request. */
export async function ensureSharingIndexes(c: SharingCollections): Promise<void> {
  await Promise.all([
    c.dips.createIndex({ shareSlug: 1 }),
    c.dipShares.createIndex({ dipId: 1, inviteType: 1, recipientEmail: 1 }, { unique: true }),
    c.dipShares.createIndex({ tokenHash: 1 }, { unique: true }),
    // The DIP a link was signed for, by the slug in its URL (a link the projection has not heard of,
    // a replaced link's refusal): one lookup, not a scan of every link.
    c.dipShares.createIndex({ shareSlug: 1 }),
    c.recipientShares.createIndex({ dipId: 1, email: 1 }, { unique: true }),
    c.recipientShares.createIndex({ email: 1, sharedAt: -1 }),
    c.sharedDeals.createIndex({ signupToken: 1 }, { unique: true }),
    c.referrals.createIndex({ referrerUserId: 1, createdAt: -1 }),
    c.shareFunnel.createIndex(
      { createdAt: 1 },
      { name: 'share_funnel_ttl', expireAfterSeconds: SHARE_FUNNEL_RETENTION_SECONDS },
    ),
  ]);
}
