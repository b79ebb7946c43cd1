import { z } from 'zod';
import { LOAN_TYPES } from '../common/enums';
import { jsonObject } from '../common/json';
import { EMAIL_TEXT_PATTERN, emailText, isoDateTimeText, nameText } from '../common/text';
import { dipSharedViewSchema, dipSummarySchema } from '../dip/views';
import { SHARING_MESSAGES } from './messages';

export { SHARING_MESSAGES };

/** Most recipients one share request may name. */
export const MAX_SHARE_RECIPIENTS = 20;
/** Largest loan data (one lender offer as JSON) a deal share may carry. */
export const MAX_DEAL_LOAN_DATA_BYTES = 20_000;
/** The spec's email format: text, an @, then a dotted domain with no spaces. */
export const SIMPLE_EMAIL_PATTERN = EMAIL_TEXT_PATTERN;

const optionalText = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value && value.trim() ? value.trim() : null));

/** POST /api/online-dip/{dipId}/share with recipients: targeted shares, one signed link emailed to each. */
export const targetedShareBodySchema = z.object({
  inviteType: z.literal('targeted').optional(),
  recipients: z
    .array(z.string().max(254), { error: SHARING_MESSAGES.noEmails })
    .max(MAX_SHARE_RECIPIENTS, `At most ${MAX_SHARE_RECIPIENTS} recipients`),
  message: optionalText(2000),
});
export type TargetedShareBody = z.infer<typeof targetedShareBodySchema>;

/** POST /api/online-dip/{dipId}/share with inviteType 'open': the owner's signed link. */
export const openShareBodySchema = z.object({
  inviteType: z.literal('open'),
  expiresAt: isoDateTimeText('expiresAt must be a date and time').optional(),
});
export type OpenShareBody = z.infer<typeof openShareBodySchema>;

export const shareRecipientResultSchema = z.object({
  email: z.string(),
  success: z.boolean(),
  shareId: z.string().optional(),
  /** False when this address was emailed about the DIP in the last 24 hours: shared, not emailed again. */
  emailed: z.boolean().optional(),
  /** Why no email was sent, when none was. */
  note: z.string().optional(),
  error: z.string().optional(),
});

export const targetedShareResponseSchema = z.object({
  success: z.literal(true),
  results: z.array(shareRecipientResultSchema),
  sent: z.number().int(),
  failed: z.number().int(),
});
export const openShareResponseSchema = z.object({
  success: z.literal(true),
  url: z.string(),
  shareId: z.string(),
  expiresAt: z.string(),
});
/** When the share could not be recorded (and so no email queued): the owner copies the DIP's link instead. */
export const shareFallbackResponseSchema = z.object({
  success: z.literal(false),
  fallback: z.literal(true),
  shareUrl: z.string(),
  userMessage: z.string(),
  error: z.string(),
});

/**
 * The DIP's summary a 'Shared with me' entry carries: the owner's list's, copied into the entry when the
 * DIP is shared, without the project name (entries made before it was copied have none).
 */
export const sharedSnapshotSummarySchema = dipSummarySchema.omit({ projectName: true });
export type SharedSnapshotSummary = z.infer<typeof sharedSnapshotSummarySchema>;

/** GET /api/shared: one DIP shared with the caller ('Shared item'). */
export const sharedItemSchema = z.object({
  shareId: z.string(),
  shareSlug: z.string().nullable(),
  dipId: z.string(),
  isViewed: z.boolean(),
  isExpired: z.boolean(),
  expiresAt: z.string(),
  sharedBy: z.string(),
  sharedAt: z.string(),
  message: z.string().nullable(),
  quoteCode: z.string(),
  snapshot: sharedSnapshotSummarySchema,
  id: z.string(),
  share_slug: z.string().nullable(),
  quote_code: z.string(),
  status: z.enum(['new', 'viewed']),
  from: z.object({ name: z.string(), email: z.string() }),
  expires_at: z.string(),
});
export type SharedItem = z.infer<typeof sharedItemSchema>;
export const sharedListResponseSchema = z.object({
  success: z.literal(true),
  items: z.array(sharedItemSchema),
});
export const unreadCountResponseSchema = z.object({ success: z.literal(true), count: z.number().int() });

export const ACCESS_METHODS = ['signed-link', 'open-link', 'recipient'] as const;

/** GET /api/online-dip/shared/{slug} and GET /api/shared/dips/{id}. */
export const sharedDipResponseSchema = z.object({
  success: z.literal(true),
  dip: dipSharedViewSchema,
  shareInfo: z.object({
    shareId: z.string(),
    shared_by: z.string(),
    shared_at: z.string(),
    message: z.string().nullable(),
  }),
  permissions: z.object({ readOnly: z.literal(true), view: z.boolean(), downloadPdf: z.boolean() }),
  accessMethod: z.enum(ACCESS_METHODS),
});

/**
 * How a deal is shared: by email (Send Deal; the default), or as a link for WhatsApp, Facebook or
 * LinkedIn, which names no recipient and sends no email.
 */
export const DEAL_SHARE_CHANNELS = ['email', 'whatsapp', 'facebook', 'linkedin'] as const;
export type DealShareChannel = (typeof DEAL_SHARE_CHANNELS)[number];

/** POST /api/referrals/deal-share ('Deal-share payload'; `channel` is ours). */
export const dealShareBodySchema = z
  .object({
    referralEmail: emailText({ required: 'Email Required', invalid: 'Invalid Email Addresses' }).optional(),
    channel: z
      .enum(DEAL_SHARE_CHANNELS, { error: 'channel must be email, whatsapp, facebook or linkedin' })
      .optional(),
    referrerId: z.string({ error: 'referrerId is required' }).min(1, 'referrerId is required').max(100),
    loanData: z.union(
      [
        z
          .string()
          .max(MAX_DEAL_LOAN_DATA_BYTES, `loanData must be at most ${MAX_DEAL_LOAN_DATA_BYTES} bytes`),
        jsonObject('loanData'),
      ],
      { error: 'loanData is required' },
    ),
    loanType: z.enum(LOAN_TYPES, { error: 'loanType must be bridging, commercial or development' }),
    note: optionalText(1000),
    /**
     * The search run the offer comes from (`data.SearchRunId` of the search answer). The deal shared is
     * the server's own record of that run's offer; `loanData` only names it when `lenderId` and
     * `productId` are absent (by its `LenderId` and `ProductId`), and its figures are never read.
     */
    searchRunId: z.string({ error: 'searchRunId must be text' }).min(1).max(100).optional(),
    /** The offer's lender and product in that run (`LenderId`, `ProductId` of the offer). */
    lenderId: z.string({ error: 'lenderId must be text' }).min(1).max(100).optional(),
    productId: z.string({ error: 'productId must be text' }).min(1).max(200).optional(),
  })
  .superRefine((body, ctx) => {
    // Only an email share names a recipient, and it must.
    if ((body.channel ?? 'email') === 'email' && body.referralEmail === undefined)
      ctx.addIssue({ code: 'custom', path: ['referralEmail'], message: 'Email Required' });
  });
export type DealShareBody = z.infer<typeof dealShareBodySchema>;

/** POST /api/referrals ('Referral payload', 'Referral'). */
export const referralBodySchema = z.object({
  referrerName: nameText(
    z
      .string({ error: SHARING_MESSAGES.referralMissing })
      .trim()
      .min(1, SHARING_MESSAGES.referralMissing)
      .max(200),
    SHARING_MESSAGES.referrerNameControlCharacters,
  ),
  referralEmail: emailText({
    required: SHARING_MESSAGES.referralMissing,
    invalid: SHARING_MESSAGES.referralInvalidEmail,
  }),
  message: optionalText(2000),
});
export type ReferralBody = z.infer<typeof referralBodySchema>;

/**
 * Share-funnel event names: the spec's five, plus its 'DIP view and PDF events', which it does not
 * name (ours: dip_viewed, dip_pdf_downloaded).
 */
export const SHARE_FUNNEL_EVENTS = [
  'share_link_created',
  'share_link_copied',
  'share_link_opened',
  'share_accepted',
  'shared_dip_viewed',
  'dip_viewed',
  'dip_pdf_downloaded',
] as const;

/** POST /api/telemetry/share-funnel. */
export const shareFunnelBodySchema = z.object({
  event: z.enum(SHARE_FUNNEL_EVENTS),
  dipId: z.string().max(100).nullish(),
  shareId: z.string().max(100).nullish(),
  context: z.enum(['shared', 'owner']).nullish(),
  duration: z.number().finite().nonnegative().max(86_400_000).nullish(),
  metadata: jsonObject('metadata').nullish(),
  timestamp: z.union([z.string().max(40), z.number()]).nullish(),
  sessionId: z.string().max(100).nullish(),
  correlationId: z.string().max(100).nullish(),
});
export type ShareFunnelBody = z.infer<typeof shareFunnelBodySchema>;

/**
 * The owner's view of who a DIP is shared with: each recipient by email, and the
 * open link (Copy Link's) with how many people came in through it; each with the id Revoke takes.
 */
export const dipSharesResponseSchema = z.object({
  success: z.literal(true),
  recipients: z.array(
    z.object({
      shareId: z.string(),
      email: z.string(),
      sharedAt: z.string(),
      viewed: z.boolean(),
    }),
  ),
  openLink: z
    .object({
      shareId: z.string(),
      createdAt: z.string(),
      expiresAt: z.string().nullable(),
      openedBy: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type DipSharesResponse = z.infer<typeof dipSharesResponseSchema>;

export const revokeShareResponseSchema = z.object({
  success: z.literal(true),
  shareId: z.string(),
  inviteType: z.enum(['targeted', 'open']),
});
