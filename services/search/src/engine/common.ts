import {
  estimateTrueMonthlyCost,
  formatCurrency,
  type InterestTreatment,
  type LoanOffer,
  type LoanType,
} from '@lsp/contracts';
import type { Lender, Product } from '../panel/schema';

/** What a sizing function needs to know about the lender behind a product. */
export type LenderInfo = Pick<Lender, 'id' | 'name' | 'regions'>;

export type SizingResult = { ok: true; offer: LoanOffer } | { ok: false; reason: string };

export const decline = (reason: string): SizingResult => ({ ok: false, reason });

/** The deal facts every product type screens before sizing. */
export interface ScreenedDeal {
  location: LenderInfo['regions'][number];
  propertyClass: Product['refusedPropertyClasses'][number];
  /** Why a refused property class is declined, in the words of this loan type. */
  refusedClassReason: string;
  /** The loan term in months, for loan types that state their term range in months. */
  termMonths?: number;
}

/**
 * The first reason a lender or product turns a deal away on region, then property class, then term
 * (when one is given); null when none applies. Only the first failing check is reported.
 */
export function screenDeal(
  lender: LenderInfo,
  product: Pick<Product, 'refusedPropertyClasses' | 'minTermMonths' | 'maxTermMonths'>,
  deal: ScreenedDeal,
): SizingResult | null {
  if (!lender.regions.includes(deal.location)) return decline(`Does not lend in ${spaced(deal.location)}`);
  if (product.refusedPropertyClasses.includes(deal.propertyClass)) return decline(deal.refusedClassReason);
  if (
    deal.termMonths !== undefined &&
    (deal.termMonths < product.minTermMonths || deal.termMonths > product.maxTermMonths)
  )
    return decline(
      `Loan term of ${deal.termMonths} months is outside its ${product.minTermMonths}-${product.maxTermMonths} month range`,
    );
  return null;
}

type TermRange = Pick<Product, 'minTermMonths' | 'maxTermMonths'>;

/** Why a term in months qualifies, for the loan types that state their term range in months. */
export const termWithinRange = (termMonths: number, product: TermRange) =>
  `${termMonths}-month term within its ${product.minTermMonths}-${product.maxTermMonths} month range`;

/** The warning for a term within a month of the product's longest (none otherwise). */
export const termNearMaximum = (termMonths: number, product: TermRange): string[] =>
  termMonths >= product.maxTermMonths - 1
    ? [`A ${termMonths}-month term leaves little room before its ${product.maxTermMonths}-month maximum`]
    : [];

export const pounds = (amount: number) => formatCurrency(amount);
export const pct = (fraction: number, places = 1) => `${(fraction * 100).toFixed(places)}%`;

/** The first size band whose `upToLoan` covers the loan (the last band if the loan is beyond all). */
export function sizeBandFor<T extends { upToLoan: number }>(bands: readonly T[], loan: number): T {
  return bands.find((band) => loan <= band.upToLoan) ?? bands[bands.length - 1];
}

/** The first rate band whose `maxRatio` covers the ratio (the last band above them all). */
export function rateBandFor<T extends { maxRatio: number }>(card: readonly T[], ratio: number): T {
  return card.find((band) => ratio <= band.maxRatio + 1e-9) ?? card[card.length - 1];
}

/**
 * The largest gross loan within a loan-size-banded cap. `capFor(band)` is the most that band's ratio
 * allows in pounds; `grossAt(limit)` the largest loan the deal supports when gross may not exceed
 * `limit`. Each band is tried with its own limit (its ceiling, its cap, the product maximum); the
 * answer is the largest loan that really sits within the band it was held to.
 */
export function largestWithinBands<B extends { upToLoan: number }>(
  bands: readonly B[],
  capFor: (band: B) => number,
  maxLoan: number,
  grossAt: (limit: number) => number,
): number | null {
  let best: number | null = null;
  let floor = 0;
  for (const band of bands) {
    const cap = capFor(band);
    const gross = Math.floor(grossAt(Math.min(band.upToLoan, maxLoan, cap)));
    // A loan at or below the previous band's ceiling belongs to that band, which was tried already.
    if (gross > floor && gross <= band.upToLoan && gross <= cap + 1e-6 && (best === null || gross > best))
      best = gross;
    floor = band.upToLoan;
    if (floor >= maxLoan) break;
  }
  return best;
}

/**
 * Runs a sizing at a rate until the rate card agrees with the ratio the sizing produced. Pricing
 * depends on LTV and LTV on pricing, so this settles in one or two rounds; if it oscillates between
 * two bands the higher rate is kept, which errs on the borrower's side of the quote.
 */
export function settleRate<T>(
  initialRate: number,
  size: (rate: number) => T,
  rateFor: (result: T) => number,
): { rate: number; result: T } {
  let rate = initialRate;
  let result = size(rate);
  for (let round = 0; round < 3; round += 1) {
    const wanted = rateFor(result);
    if (Math.abs(wanted - rate) < 1e-12) return { rate, result };
    if (round === 2) break;
    rate = wanted;
    result = size(rate);
  }
  const higher = Math.max(rate, rateFor(result));
  return { rate: higher, result: size(higher) };
}

/** Monthly payment per £1 borrowed over `months` at an annual rate (standard annuity). */
export function annuityFactor(annualRate: number, months: number): number {
  const r = annualRate / 12;
  if (r === 0) return 1 / months;
  return r / (1 - (1 + r) ** -months);
}

export interface OfferFigures {
  lender: LenderInfo;
  product: Pick<Product, 'id' | 'name'>;
  loanType: LoanType;
  grossLoan: number;
  netLoan: number;
  annualRate: number;
  interestTreatment: InterestTreatment;
  loanInterest: number;
  arrangementFee: number;
  exitFee: number;
  otherCosts: number;
  monthlyPayment: number;
  profitForecast: number;
  depositRequired: number;
  /** The value LoanToValue is measured against (GDV for development). */
  valueBasis: number;
  termMonths: number;
  extra: Partial<LoanOffer>;
  qualifiesBecause: string[];
  closeToLimits: string[];
}

const whole = (value: number) => Math.max(0, Math.round(value));
const twoDp = (value: number) => Math.max(0, Math.round(value * 100) / 100);

/** Rounds and assembles an offer; every money figure is whole pounds and never negative. */
export function buildOffer(f: OfferFigures): LoanOffer {
  const gross = whole(f.grossLoan);
  const arrangementFee = whole(f.arrangementFee);
  const exitFee = whole(f.exitFee);
  const loanInterest = whole(f.loanInterest);
  const otherCosts = whole(f.otherCosts);
  return {
    LenderName: f.lender.name,
    LenderId: f.lender.id,
    ProductId: f.product.id,
    ProductName: f.product.name,
    LoanType: f.loanType,
    GrossLoan: gross,
    NetLoan: whole(f.netLoan),
    InterestRate: Math.round(f.annualRate * 1e6) / 1e6,
    TrueMonthlyCost: estimateTrueMonthlyCost({
      annualRate: f.annualRate,
      grossLoan: gross,
      arrangementFee,
      exitFee,
      termMonths: f.termMonths,
    }),
    ProfitForecast: whole(f.profitForecast),
    DepositRequired: whole(f.depositRequired),
    MonthlyPayment: twoDp(f.monthlyPayment),
    ArrangementFee: arrangementFee,
    ArrangementFeePercOfValue: f.valueBasis > 0 ? twoDp((arrangementFee / f.valueBasis) * 100) : 0,
    LenderExitFee: exitFee,
    OtherLenderCosts: otherCosts,
    LoanInterest: loanInterest,
    TotalLenderCosts: arrangementFee + exitFee + otherCosts + loanInterest,
    LoanToValue: f.valueBasis > 0 ? twoDp((f.grossLoan / f.valueBasis) * 100) : 0,
    LoanToValueNet: f.valueBasis > 0 ? twoDp((f.netLoan / f.valueBasis) * 100) : 0,
    LoanTerm: f.termMonths,
    InterestTreatment: f.interestTreatment,
    ...f.extra,
    qualifiesBecause: f.qualifiesBecause,
    closeToLimits: f.closeToLimits,
  };
}

/** A product's offer for the deal: the sizing's answer when the deal qualifies. */
export const offered = (figures: OfferFigures): SizingResult => ({ ok: true, offer: buildOffer(figures) });

/**
 * The decline of a gross loan outside the product's minimum and maximum loan, or null within them
 * (the maximum with half a pound's tolerance for rounding).
 */
export function declineOutsideLoanLimits(
  gross: number,
  product: Pick<Product, 'minLoan' | 'maxLoan'>,
): SizingResult | null {
  if (gross > product.maxLoan + 0.5)
    return decline(`The ${pounds(gross)} gross loan is above its ${pounds(product.maxLoan)} maximum`);
  if (gross < product.minLoan)
    return decline(`The ${pounds(gross)} gross loan is below its ${pounds(product.minLoan)} minimum`);
  return null;
}

/** "close" means within this share of a limit (e.g. an LTV of 72% against a 75% cap). */
export const CLOSE_MARGIN = 0.05;
export const isClose = (actual: number, limit: number) => limit > 0 && actual >= limit * (1 - CLOSE_MARGIN);
export const isCloseAbove = (actual: number, floor: number) => actual <= floor * (1 + CLOSE_MARGIN);

/** Human labels for enum values in reasons. */
export function spaced(value: string): string {
  return value.replace(/([a-z])([A-Z])/g, '$1 $2');
}
