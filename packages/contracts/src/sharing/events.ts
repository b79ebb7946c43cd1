import { z } from 'zod';
import { defineEvent } from '../events/define';
import { LOAN_TYPES } from '../common/enums';

export const SHARING_EVENT_TYPES = {
  shareCreated: 'share.created',
  shareViewed: 'share.viewed',
  shareRevoked: 'share.revoked',
  dealShared: 'deal.shared',
  dealViewed: 'deal.viewed',
  referralCreated: 'referral.created',
} as const;

export const INVITE_TYPES = ['targeted', 'open'] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

export const SHARE_STATUSES = ['active', 'revoked', 'expired', 'claimed'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

export const sharePermissionsSchema = z.object({ view: z.boolean(), downloadPdf: z.boolean() });
export type SharePermissions = z.infer<typeof sharePermissionsSchema>;
export const DEFAULT_SHARE_PERMISSIONS: SharePermissions = { view: true, downloadPdf: true };

const text = z.string().max(2000);

/**
 * A DIP was shared. A targeted share names the recipient's email and carries the signed link to
 * email them (the only place the link exists besides the email: only its salted hash is stored).
 * The dip service keeps who may download the PDF from these events.
 */
export const shareCreatedEventSchema = z.object({
  shareId: z.string().min(1),
  dipId: z.string().uuid(),
  ownerUserId: z.string().min(1),
  sharedByName: text,
  inviteType: z.enum(INVITE_TYPES),
  recipientEmail: z.string().min(1).max(254).nullable(),
  permissions: sharePermissionsSchema,
  message: text.nullable(),
  quoteCode: z.string().min(1),
  shareUrl: z.string().url(),
  /** When the link stops working, as things stand now (what the email shows). */
  expiresAt: z.string().datetime(),
  /**
   * True when the link has no expiry of its own and lasts as long as the DIP (a later extension of
   * the DIP extends it); false for an open link the owner gave an earlier expiry. Absent in events
   * written before the field: read as false.
   */
  expiresWithDip: z.boolean().optional(),
  /**
   * False when the recipient was already emailed about this DIP within the last 24 hours: the share is
   * recorded (dip learns of it) but no email is sent. Absent in events written before the field: read
   * as true.
   */
  emailRecipient: z.boolean().optional(),
  createdAt: z.string().datetime(),
});
export type ShareCreatedEvent = z.infer<typeof shareCreatedEventSchema>;

/** Published once per share, the first time its recipient opens it. */
export const shareViewedEventSchema = z.object({
  shareId: z.string().min(1),
  dipId: z.string().uuid(),
  ownerUserId: z.string().min(1),
  recipientUserId: z.string().min(1),
  recipientEmail: z.string().min(1).max(254),
  /**
   * The link (`share.created`'s `shareId`) the recipient came through: for a targeted share the same
   * as `shareId`; for the open link, the link every opener shares. Absent in older events.
   */
  linkId: z.string().min(1).optional(),
  viewedAt: z.string().datetime(),
});
export type ShareViewedEvent = z.infer<typeof shareViewedEventSchema>;

export const shareRevokedEventSchema = z.object({
  shareId: z.string().min(1),
  dipId: z.string().uuid(),
  recipientEmail: z.string().min(1).max(254).nullable(),
  reason: z.enum(['owner', 'link-regenerated', 'dip-revoked']),
  revokedAt: z.string().datetime(),
});
export type ShareRevokedEvent = z.infer<typeof shareRevokedEventSchema>;

/** A deal (one lender offer and a note) was sent to an email; carries the page link for the email. */
export const dealSharedEventSchema = z.object({
  dealId: z.string().min(1),
  referrerId: z.string().min(1),
  referrerName: text,
  referralEmail: z.string().min(1).max(254),
  loanType: z.enum(LOAN_TYPES),
  lenderName: text.nullable(),
  note: text.nullable(),
  dealUrl: z.string().url(),
  createdAt: z.string().datetime(),
});
export type DealSharedEvent = z.infer<typeof dealSharedEventSchema>;

export const dealViewedEventSchema = z.object({
  dealId: z.string().min(1),
  referrerId: z.string().min(1),
  viewerUserId: z.string().min(1).nullable(),
  viewedAt: z.string().datetime(),
});
export type DealViewedEvent = z.infer<typeof dealViewedEventSchema>;

export const referralCreatedEventSchema = z.object({
  referralId: z.string().min(1),
  referrerUserId: z.string().min(1),
  referrerName: text,
  referralEmail: z.string().min(1).max(254),
  message: text.nullable(),
  inviteUrl: z.string().url(),
  createdAt: z.string().datetime(),
});
export type ReferralCreatedEvent = z.infer<typeof referralCreatedEventSchema>;

/** Share events are about one DIP (its id is the subject), deal and referral events about their own id. */
const sharingEvent = <S extends z.ZodType>(type: string, schema: S, subject: (data: z.output<S>) => string) =>
  defineEvent({ type, producer: 'sharing', schema, subject });

export const SHARING_EVENTS = {
  shareCreated: sharingEvent(SHARING_EVENT_TYPES.shareCreated, shareCreatedEventSchema, (data) => data.dipId),
  shareViewed: sharingEvent(SHARING_EVENT_TYPES.shareViewed, shareViewedEventSchema, (data) => data.dipId),
  shareRevoked: sharingEvent(SHARING_EVENT_TYPES.shareRevoked, shareRevokedEventSchema, (data) => data.dipId),
  dealShared: sharingEvent(SHARING_EVENT_TYPES.dealShared, dealSharedEventSchema, (data) => data.dealId),
  dealViewed: sharingEvent(SHARING_EVENT_TYPES.dealViewed, dealViewedEventSchema, (data) => data.dealId),
  referralCreated: sharingEvent(
    SHARING_EVENT_TYPES.referralCreated,
    referralCreatedEventSchema,
    (data) => data.referralId,
  ),
} as const;
