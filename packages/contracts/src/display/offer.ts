import { COMMERCIAL_LIFETIME_YEARS, DEFAULT_TMC_TERM_MONTHS } from '../common/constants';
import { formatCurrency } from './format';
import { firstNonZero, firstNumber, parseNumber, roundTo } from './numbers';

/**
 * A lender offer as the browser receives it: our engine sends numbers, but saved searches and older
 * results may carry text, so every reader accepts either.
 */
export type OfferLike = Record<string, unknown>;

export function lenderNameOf(offer: OfferLike): string {
  const name = offer.LenderName ?? offer.Lender;
  return typeof name === 'string' && name.trim() ? name : 'Lender Details';
}

export function grossLoanOf(offer: OfferLike): number | null {
  return parseNumber(offer.GrossLoan);
}

export function netLoanOf(offer: OfferLike): number | null {
  return parseNumber(offer.NetLoan);
}

export function profitOf(offer: OfferLike): number | null {
  return firstNumber(offer.ProfitForecast, offer.Profit);
}

/** The rate the filter and sort use: the true monthly cost when given, else the annual interest rate. */
export function rateOf(offer: OfferLike): number | null {
  return firstNonZero(offer.TrueMonthlyCost, offer.InterestRate);
}

/**
 * Deposit: the one given, else property or purchase value minus net loan, else build or project cost
 * minus net loan, else current value minus net loan, floored at 0.
 */
export function depositOf(offer: OfferLike): number | null {
  const given = firstNumber(offer.DepositRequired, offer.EquityOrDeposit);
  if (given !== null) return Math.max(0, given);
  const net = netLoanOf(offer);
  if (net === null) return null;
  const base = firstNonZero(
    offer.PropertyValue,
    offer.PurchasePrice,
    offer.TotalBuildCost,
    offer.BuildCost,
    offer.TotalProjectCost,
    offer.CurrentValue,
  );
  return base === null ? null : Math.max(0, base - net);
}

/**
 * Arrangement fee: the lender arrangement fee, else the arrangement fee, else lender costs minus loan
 * interest. Null (shown as 'Contact for fee') when none of those gives a positive amount.
 */
export function arrangementFeeOf(offer: OfferLike): number | null {
  const direct = firstNonZero(offer.LenderArrangementFee, offer.ArrangementFee);
  if (direct !== null) return direct > 0 ? direct : null;
  const costs = firstNonZero(offer.LenderCosts, offer.TotalLenderCosts);
  if (costs === null) return null;
  const derived = costs - (parseNumber(offer.LoanInterest) ?? 0);
  return derived > 0 ? derived : null;
}

export function formatArrangementFee(offer: OfferLike): string {
  const fee = arrangementFeeOf(offer);
  return fee === null ? 'Contact for fee' : formatCurrency(fee);
}

export function exitFeeOf(offer: OfferLike): number {
  return firstNonZero(offer.LenderExitFee, offer.ExitFee) ?? 0;
}

/**
 * True monthly cost estimate as a monthly fraction: annual interest ÷ 12 plus the arrangement and exit
 * fees as a share of the gross loan spread over the term; rounded to 2 dp of a percent.
 */
export function estimateTrueMonthlyCost(input: {
  annualRate: number;
  grossLoan: number;
  arrangementFee: number;
  exitFee: number;
  termMonths?: number;
}): number {
  const term = input.termMonths && input.termMonths > 0 ? input.termMonths : DEFAULT_TMC_TERM_MONTHS;
  const feeShare = input.grossLoan > 0 ? (input.arrangementFee + input.exitFee) / input.grossLoan : 0;
  return roundTo((input.annualRate / 12 + feeShare / term) * 100, 2) / 100;
}

/**
 * The offer's TMC if it has one (0 included: the lender has not priced it, shown 'Contact for TMC'),
 * else the estimate from its rate and fees; null when neither exists.
 */
export function trueMonthlyCostOf(offer: OfferLike, termMonths?: number): number | null {
  const given = parseNumber(offer.TrueMonthlyCost);
  if (given !== null) return given;
  const annualRate = parseNumber(offer.InterestRate);
  const gross = grossLoanOf(offer);
  if (annualRate === null || gross === null) return given;
  return estimateTrueMonthlyCost({
    annualRate,
    grossLoan: gross,
    arrangementFee: arrangementFeeOf(offer) ?? 0,
    exitFee: exitFeeOf(offer),
    termMonths: termMonths ?? parseNumber(offer.LoanTerm) ?? undefined,
  });
}

/** Commercial lifetime cost: monthly payment × 12 × 20 plus the arrangement fee. */
export function commercialLifetimeCost(offer: OfferLike): number | null {
  const monthly = parseNumber(offer.MonthlyPayment);
  if (monthly === null) return null;
  return monthly * 12 * COMMERCIAL_LIFETIME_YEARS + (arrangementFeeOf(offer) ?? 0);
}

/** Return on capital employed: profit ÷ deposit as a percentage to 2 dp; 0 when there is no deposit. */
export function returnOnCapitalEmployed(profit: unknown, deposit: unknown): number {
  const p = parseNumber(profit);
  const d = parseNumber(deposit);
  if (p === null || d === null || d === 0) return 0;
  return roundTo((p / d) * 100, 2);
}

export function roceOf(offer: OfferLike): number {
  return returnOnCapitalEmployed(profitOf(offer), depositOf(offer));
}
