import { z } from 'zod';
import { defineEvent } from '../events/define';
import { LOAN_TYPES } from '../common/enums';
import { loanOfferSchema } from '../search/result';

export const DIP_EVENT_TYPES = {
  created: 'dip.created',
  linkRegenerated: 'dip.link.regenerated',
  expiryChanged: 'dip.expiry.changed',
  revoked: 'dip.revoked',
  pdfRendered: 'dip.pdf.rendered',
  applicationSubmitted: 'application.submitted',
  productChanged: 'dip.product.changed',
} as const;

/**
 * A sum of money in a DIP: whole pounds, or pence kept where the field says so. The dip service stores
 * every field declared with this very schema as Decimal128 (`mapDipMoney` finds them by walking the
 * snapshot's schema), so a money field added to the snapshot is stored as money with no other change.
 */
export const dipMoneySchema = z.number().finite().nonnegative();
const money = dipMoneySchema;
const text = z.string().max(500);

export const dipBorrowerSchema = z.object({
  name: text,
  email: text,
  salutation: text.nullable(),
  /** Who borrows: 'Individual', 'Company' or the company name. */
  entity: text,
});

export const dipPropertySchema = z.object({
  addressLine1: text,
  addressLine2: text.nullable(),
  city: text.nullable(),
  county: text.nullable(),
  postcode: text.nullable(),
  /** The region the search was run for (the spec's propertyLocation). */
  location: text,
  propertyType: text,
  currentValue: money,
  ownerOccupied: z.boolean().nullable(),
});

export const dipLoanSchema = z.object({
  productType: text,
  regulated: z.boolean(),
  netLoan: money,
  grossLoan: money,
  /** Every lender cost: arrangement, exit and other fees, interest excluded. */
  fees: money,
  /** An annual fraction (0.0875); the views that show it as a percent say so in its name. */
  interestRate: z.number().finite().nonnegative(),
  termMonths: z.number().int().positive(),
  ltvPercent: z.number().finite().nonnegative(),
  monthlyPayment: money,
  arrangementFeePercent: z.number().finite().nonnegative(),
  mortgageTermYears: z.number().int().positive().nullable(),
});

export const dipFinancialSchema = z.object({
  depositRequired: money,
  purchasePrice: money,
  projectCost: money,
  buildCost: money,
  gdv: money.nullable(),
});

/**
 * What a DIP says, frozen when it is issued: the PDF and every view (owner, online, shared, list) are
 * drawn from this alone, so a later change to the lender panel or the saved search never alters an
 * issued DIP. It is the base every view of a DIP is declared from (`dip/views.ts`).
 * Money is whole pounds except `monthlyPayment` (pence kept); `interestRate` is an annual fraction.
 */
export const dipSnapshotSchema = z.object({
  loanType: z.enum(LOAN_TYPES),
  lenderName: text,
  lenderId: text,
  productId: text,
  productName: text,
  projectName: text.nullable(),
  /** Single-line address as the lists show it: the property address, else the project name, else the location. */
  propertyAddress: text,
  borrower: dipBorrowerSchema,
  property: dipPropertySchema,
  loan: dipLoanSchema,
  financial: dipFinancialSchema,
  promoEligibleZeroBrokerFee: z.boolean(),
  /** The saved search's form data as it was when the DIP was issued. */
  searchData: z.record(z.string(), z.unknown()),
  /** The lender offer exactly as the search service computed it. */
  offer: loanOfferSchema,
});
export type DipSnapshot = z.infer<typeof dipSnapshotSchema>;

/**
 * Every dip.* event carries `version`, which grows by one with each change of the DIP: a consumer
 * applies an event only when its version is newer than what it holds, so redelivery and reordering
 * cannot roll a projection back.
 */
const dipRef = {
  dipId: z.string().uuid(),
  ownerUserId: z.string().min(1),
  version: z.number().int().positive(),
};

export const dipCreatedEventSchema = z.object({
  ...dipRef,
  ownerName: text,
  ownerEmail: text,
  searchId: z.string().min(1),
  loanIndex: z.number().int().nonnegative(),
  quoteCode: z.string().min(1),
  shareSlug: z.string().min(1),
  /** The owner's share link: the online DIP page. */
  shareUrl: z.string().url(),
  validityHours: z.number().int().positive(),
  expiresAt: z.string().datetime(),
  createdAt: z.string().datetime(),
  snapshot: dipSnapshotSchema,
});
export type DipCreatedEvent = z.infer<typeof dipCreatedEventSchema>;

/** The owner regenerated the link: every link carrying the previous slug stops working. */
export const dipLinkRegeneratedEventSchema = z.object({
  ...dipRef,
  shareSlug: z.string().min(1),
  shareUrl: z.string().url(),
  previousShareSlug: z.string().min(1).nullable(),
  regeneratedAt: z.string().datetime(),
  /**
   * When the owner last revoked the link (null or absent: never). A consumer that has not applied that
   * revocation (its event arrived late, or not yet) ends every share, not only the open link's.
   */
  linkRevokedAt: z.string().datetime().nullable().optional(),
});
export type DipLinkRegeneratedEvent = z.infer<typeof dipLinkRegeneratedEventSchema>;

export const dipExpiryChangedEventSchema = z.object({
  ...dipRef,
  expiresAt: z.string().datetime(),
  previousExpiresAt: z.string().datetime(),
  changedAt: z.string().datetime(),
});
export type DipExpiryChangedEvent = z.infer<typeof dipExpiryChangedEventSchema>;

/** The owner revoked the link: no one but the owner can open the DIP until a link is regenerated. */
export const dipRevokedEventSchema = z.object({
  ...dipRef,
  previousShareSlug: z.string().min(1).nullable(),
  revokedAt: z.string().datetime(),
});
export type DipRevokedEvent = z.infer<typeof dipRevokedEventSchema>;

export const dipPdfRenderedEventSchema = z.object({
  ...dipRef,
  fileId: z.string().min(1),
  bytes: z.number().int().positive(),
  renderMs: z.number().finite().nonnegative(),
  renderedAt: z.string().datetime(),
});
export type DipPdfRenderedEvent = z.infer<typeof dipPdfRenderedEventSchema>;

/** A DIP application (the wizard) or a loan application ('Continue application') was submitted. */
export const applicationSubmittedEventSchema = z.object({
  applicationId: z.string().min(1),
  kind: z.enum(['dip-application', 'loan-application']),
  userId: z.string().min(1),
  /** The saved search it was made from, when there is one: its dashboard entry shows 'Application Submitted'. */
  searchId: z.string().min(1).nullable(),
  loanType: z.enum(LOAN_TYPES).nullable(),
  loanAmount: money.nullable(),
  status: z.string().min(1),
  submittedAt: z.string().datetime(),
});
export type ApplicationSubmittedEvent = z.infer<typeof applicationSubmittedEventSchema>;

/** What a lender panel change did to the product a DIP was issued from (the DIP's terms stay as issued). */
export const DIP_PRODUCT_CHANGES = ['withdrawn', 'repriced'] as const;

/**
 * The latest panel change that withdrew or repriced the product a DIP was issued from: the owner sees
 * that the lender has changed the product since the DIP was issued. `at` is the activation's time.
 */
export const dipProductChangeSchema = z.object({
  panelVersion: z.string().min(1),
  change: z.enum(DIP_PRODUCT_CHANGES),
  at: z.string().datetime(),
});
export type DipProductChange = z.infer<typeof dipProductChangeSchema>;

/**
 * One lender panel activation withdrew or repriced the products of some of a user's live DIPs: one
 * event per owner per activation, naming each DIP it marked (notifications emails the owner once).
 */
export const dipProductChangedEventSchema = z.object({
  userId: z.string().min(1),
  panelVersion: z.string().min(1),
  changedAt: z.string().datetime(),
  dips: z
    .array(
      z.object({
        dipId: z.string().uuid(),
        quoteCode: z.string().min(1),
        lenderName: text,
        productName: text,
        change: z.enum(DIP_PRODUCT_CHANGES),
      }),
    )
    .min(1),
});
export type DipProductChangedEvent = z.infer<typeof dipProductChangedEventSchema>;

/**
 * A DIP's events are about the DIP (its id is the subject, so they stay in order on one partition); an
 * application's about the application; a product change about its owner, one event per owner per panel
 * activation.
 */
const dipEvent = <S extends z.ZodType>(type: string, schema: S, subject: (data: z.output<S>) => string) =>
  defineEvent({ type, producer: 'dip', schema, subject });

export const DIP_EVENTS = {
  created: dipEvent(DIP_EVENT_TYPES.created, dipCreatedEventSchema, (data) => data.dipId),
  linkRegenerated: dipEvent(
    DIP_EVENT_TYPES.linkRegenerated,
    dipLinkRegeneratedEventSchema,
    (data) => data.dipId,
  ),
  expiryChanged: dipEvent(DIP_EVENT_TYPES.expiryChanged, dipExpiryChangedEventSchema, (data) => data.dipId),
  revoked: dipEvent(DIP_EVENT_TYPES.revoked, dipRevokedEventSchema, (data) => data.dipId),
  pdfRendered: dipEvent(DIP_EVENT_TYPES.pdfRendered, dipPdfRenderedEventSchema, (data) => data.dipId),
  applicationSubmitted: dipEvent(
    DIP_EVENT_TYPES.applicationSubmitted,
    applicationSubmittedEventSchema,
    (data) => data.applicationId,
  ),
  productChanged: dipEvent(
    DIP_EVENT_TYPES.productChanged,
    dipProductChangedEventSchema,
    (data) => data.userId,
  ),
} as const;
