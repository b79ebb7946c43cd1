import {
  DIP_PRODUCT_CHANGES,
  type DipListItem,
  type DipOwnerView,
  type DipProductChange,
  type DipState,
  type DipStatus,
  type OnlineDipView,
  dipSnapshotSchema,
  dipSummaryOf,
  dipTermsOf,
  ratePercentOf,
} from '@lsp/contracts';
import { z } from 'zod';

/** When a lender panel change withdrew or repriced the product a DIP was issued from. */
export const storedProductChangeSchema = z.object({
  panelVersion: z.string().min(1),
  change: z.enum(DIP_PRODUCT_CHANGES),
  /** When the panel version was activated. */
  at: z.date(),
});
export type StoredProductChange = z.infer<typeof storedProductChangeSchema>;

/** A DIP as the dip service holds it, with money back as numbers (`data/dips.ts` stores and reads it). */
export const dipSchema = z.object({
  id: z.string(),
  userId: z.string(),
  searchId: z.string(),
  loanIndex: z.number().int().nonnegative(),
  quoteCode: z.string(),
  /** null while the owner has revoked the link. */
  shareSlug: z.string().nullable(),
  linkStatus: z.enum(['active', 'revoked']),
  validityHours: z.number().int().positive(),
  snapshot: dipSnapshotSchema,
  expiresAt: z.date(),
  createdAt: z.date(),
  /** Grows by one with each change; a PDF is rendered per version. */
  version: z.number().int().positive(),
  /** When the DIP was first shared, from sharing's events. */
  firstSharedAt: z.date().nullable(),
  /** When the owner last revoked the link (null: never); regenerating keeps it. */
  linkRevokedAt: z.date().nullable(),
  /**
   * The latest lender panel change that withdrew or repriced the product the DIP was issued from
   * (null: none while it was live). The DIP's terms never change with it.
   */
  productChange: storedProductChangeSchema.nullable(),
  /**
   * The lender panel version the DIP's offer was priced under (null: not known, for a DIP made before
   * it was recorded): a panel change back to that product's terms ends its notice.
   */
  pricedUnder: z.string().nullable(),
  /**
   * When the panel activation that last decided the notice (marked or ended it) was made: an older
   * activation handled late never undoes a newer one.
   */
  productCheckedAt: z.date().nullable(),
});
export type Dip = z.infer<typeof dipSchema>;

const productChangeView = (dip: Dip): DipProductChange | null =>
  dip.productChange
    ? {
        panelVersion: dip.productChange.panelVersion,
        change: dip.productChange.change,
        at: dip.productChange.at.toISOString(),
      }
    : null;

export const isExpired = (dip: Pick<Dip, 'expiresAt'>, now: Date) => dip.expiresAt.getTime() <= now.getTime();

export function statusOf(dip: Dip, now: Date): DipStatus {
  if (isExpired(dip, now)) return 'expired';
  return dip.linkStatus;
}

/** The online DIP page of a share slug: a URL for a slug, null for a DIP whose link is revoked. */
export function shareUrlOf(publicUrl: string, slug: string): string;
export function shareUrlOf(publicUrl: string, slug: string | null): string | null;
export function shareUrlOf(publicUrl: string, slug: string | null): string | null {
  return slug ? new URL(`/dip/${slug}`, publicUrl).toString() : null;
}

export function ownerView(dip: Dip, now: Date, publicUrl: string): DipOwnerView {
  return {
    id: dip.id,
    reference: dip.quoteCode,
    quoteCode: dip.quoteCode,
    status: statusOf(dip, now),
    expires_at: dip.expiresAt.toISOString(),
    created_at: dip.createdAt.toISOString(),
    shareSlug: dip.shareSlug,
    shareUrl: shareUrlOf(publicUrl, dip.shareSlug),
    validityHours: dip.validityHours,
    shared: { sharedOn: dip.firstSharedAt?.toISOString() ?? null },
    ...dipTermsOf(dip.snapshot),
    productChange: productChangeView(dip),
  };
}

/**
 * The hours a DIP is still valid for, rounded up (the validity chip): follows Set Expiry rather than
 * repeating the hours it was created with.
 */
export function hoursLeft(dip: Dip, now: Date): number {
  return Math.max(0, Math.ceil((dip.expiresAt.getTime() - now.getTime()) / 3_600_000));
}

/**
 * The online DIP page. `asOwner`: the caller is the DIP's owner, the only one told that the lender has
 * changed the product since (someone it was shared with sees the DIP as issued, nothing more).
 */
export function onlineView(dip: Dip, now: Date, asOwner: boolean): OnlineDipView {
  const s = dip.snapshot;
  return {
    quoteCode: dip.quoteCode,
    generatedOn: dip.createdAt.toISOString(),
    expiresAt: dip.expiresAt.toISOString(),
    productType: s.loan.productType,
    regulated: s.loan.regulated,
    borrowerSalutation: s.borrower.salutation,
    borrowerName: s.borrower.name || 'Client',
    projectCity: s.property.city ?? s.property.location,
    validityHours: hoursLeft(dip, now),
    promoEligibleZeroBrokerFee: s.promoEligibleZeroBrokerFee,
    lenderName: s.lenderName,
    loan: {
      netLoan: s.loan.netLoan,
      monthlyPayment: s.loan.monthlyPayment,
      interestRatePct: ratePercentOf(s.loan.interestRate),
      arrangementFeePct: Math.round(s.loan.arrangementFeePercent * 10) / 10,
      depositRequired: s.financial.depositRequired,
      ltvPct: Math.round(s.loan.ltvPercent * 10) / 10,
      mortgageTermYears: s.loan.mortgageTermYears,
    },
    project: {
      location: s.property.location,
      propertyType: s.property.propertyType,
      propertyValue: s.property.currentValue,
      ownerOccupied: s.property.ownerOccupied,
      borrowingEntity: s.borrower.entity,
      mortgageTermYears: s.loan.mortgageTermYears,
    },
    productChange: asOwner ? productChangeView(dip) : null,
  };
}

export function listItem(dip: Dip, now: Date, publicUrl: string): DipListItem {
  return {
    id: dip.id,
    quoteCode: dip.quoteCode,
    isExpired: isExpired(dip, now),
    status: statusOf(dip, now),
    createdAt: dip.createdAt.toISOString(),
    expiresAt: dip.expiresAt.toISOString(),
    shareUrl: shareUrlOf(publicUrl, dip.shareSlug),
    snapshot: dipSummaryOf(dip.snapshot),
    productChange: productChangeView(dip),
  };
}

/** The DIP's link state as sharing keeps it (the owner's name and address are the snapshot's borrower). */
export function dipStateOf(dip: Dip, publicUrl: string): DipState {
  return {
    dipId: dip.id,
    ownerUserId: dip.userId,
    version: dip.version,
    ownerName: dip.snapshot.borrower.name,
    ownerEmail: dip.snapshot.borrower.email,
    quoteCode: dip.quoteCode,
    shareSlug: dip.shareSlug,
    shareUrl: shareUrlOf(publicUrl, dip.shareSlug),
    status: dip.linkStatus,
    linkRevokedAt: dip.linkRevokedAt?.toISOString() ?? null,
    expiresAt: dip.expiresAt.toISOString(),
    createdAt: dip.createdAt.toISOString(),
    snapshot: dip.snapshot,
  };
}
