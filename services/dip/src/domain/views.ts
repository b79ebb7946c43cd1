import type { DipListItem, DipOwnerView, DipProductChange, DipSnapshot, OnlineDipView } from '@lsp/contracts';

/** A DIP as the dip service holds it, with money back as numbers. */
export interface Dip {
  id: string;
  userId: string;
  searchId: string;
  loanIndex: number;
  quoteCode: string;
  /** null while the owner has revoked the link. */
  shareSlug: string | null;
  linkStatus: 'active' | 'revoked';
  validityHours: number;
  snapshot: DipSnapshot;
  expiresAt: Date;
  createdAt: Date;
  /** Grows by one with each change; a PDF is rendered per version. */
  version: number;
  /** When the DIP was first shared, from sharing's events. */
  firstSharedAt: Date | null;
  /** When the owner last revoked the link (absent or null: never); regenerating keeps it. */
  linkRevokedAt?: Date | null;
  /**
   * The latest lender panel change that withdrew or repriced the product the DIP was issued from
   * (absent or null: none while it was live). The DIP's terms never change with it.
   */
  productChange?: StoredProductChange | null;
  /**
   * The lender panel version the DIP's offer was priced under (absent or null: not known, for a DIP
   * made before it was recorded): a panel change back to that product's terms ends its notice.
   */
  pricedUnder?: string | null;
  /**
   * When the panel activation that last decided the notice (marked or ended it) was made: an older
   * activation handled late never undoes a newer one.
   */
  productCheckedAt?: Date | null;
}

export interface StoredProductChange {
  panelVersion: string;
  change: DipProductChange['change'];
  /** When the panel version was activated. */
  at: Date;
}

const productChangeView = (dip: Dip): DipProductChange | null =>
  dip.productChange
    ? {
        panelVersion: dip.productChange.panelVersion,
        change: dip.productChange.change,
        at: dip.productChange.at.toISOString(),
      }
    : null;

export type DipStatus = 'active' | 'expired' | 'revoked';

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

const pct2 = (fraction: number) => Math.round(fraction * 10000) / 100;

export function ownerView(dip: Dip, now: Date, publicUrl: string): DipOwnerView {
  const s = dip.snapshot;
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
    borrower: { name: s.borrower.name, entity: s.borrower.entity },
    loan: {
      lenderName: s.lenderName,
      productName: s.productName,
      productType: s.loan.productType,
      netLoanAmount: s.loan.netLoan,
      grossLoan: s.loan.grossLoan,
      fees: s.loan.fees,
      ratePercent: pct2(s.loan.interestRate),
      termMonths: s.loan.termMonths,
      ltvPercent: s.loan.ltvPercent,
      monthlyPayment: s.loan.monthlyPayment,
    },
    property: {
      addressLine1: s.property.addressLine1,
      addressLine2: s.property.addressLine2,
      city: s.property.city,
      county: s.property.county,
      postcode: s.property.postcode,
      propertyType: s.property.propertyType,
      currentValue: s.property.currentValue,
    },
    financial: {
      depositRequired: s.financial.depositRequired,
      purchasePrice: s.financial.purchasePrice,
      projectCost: s.financial.projectCost,
      buildCost: s.financial.buildCost,
    },
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
      interestRatePct: pct2(s.loan.interestRate),
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
  const s = dip.snapshot;
  return {
    id: dip.id,
    quoteCode: dip.quoteCode,
    isExpired: isExpired(dip, now),
    status: statusOf(dip, now),
    createdAt: dip.createdAt.toISOString(),
    expiresAt: dip.expiresAt.toISOString(),
    shareUrl: shareUrlOf(publicUrl, dip.shareSlug),
    snapshot: {
      propertyAddress: s.propertyAddress,
      projectName: s.projectName,
      searchData: s.searchData,
      netLoan: s.loan.netLoan,
      grossLoan: s.loan.grossLoan,
      interestRate: s.loan.interestRate,
      lenderName: s.lenderName,
      loanType: s.loanType,
    },
    productChange: productChangeView(dip),
  };
}
