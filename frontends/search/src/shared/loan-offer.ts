import {
  arrangementFeeOf,
  commercialLifetimeCost,
  depositOf,
  exitFeeOf,
  grossLoanOf,
  netLoanOf,
  parseNumber,
  profitOf,
  returnOnCapitalEmployed,
  trueMonthlyCostOf,
  type OfferLike,
} from '@lsp/contracts';

/** The fields of an offer the screens read, normalised once to numbers or null. */
export interface LoanOffer {
  /** The offer exactly as the lender panel returned it (shown under 'Raw API Response'). */
  raw: OfferLike;
  /** The offer with the form's purchase price and current value filled in, for the shared readers. */
  source: OfferLike;
  /** The lender's name, or '' when the offer carries none. */
  lenderName: string;
  grossLoan: number | null;
  netLoan: number | null;
  /** Annual interest as a fraction (0.09 = 9% a year). */
  interestRate: number | null;
  /** Monthly cost as a fraction of the loan (0.012 = 1.2% a month); estimated when not given. */
  trueMonthlyCost: number | null;
  profit: number | null;
  deposit: number | null;
  monthlyPayment: number | null;
  /** Null when the lender quotes none ('Contact for fee'). */
  arrangementFee: number | null;
  arrangementFeePercent: number | null;
  exitFee: number;
  otherLenderCosts: number | null;
  totalLenderCosts: number | null;
  loanInterest: number | null;
  loanToValue: number | null;
  loanToValueNet: number | null;
  purchasePrice: number | null;
  propertyValue: number | null;
  buildCost: number | null;
  totalBuildCost: number | null;
  buildLoan: number | null;
  landLoan: number | null;
  mortgageTerm: number | null;
  /** Commercial only: monthly payment × 12 × 20 plus the arrangement fee; null otherwise. */
  lifetimeCost: number | null;
  /** ROCE in percent, only when both profit and deposit exist. */
  roce: number | null;
}

/** A commercial offer: the caller says so, or the offer's own LoanType, or the form's loanType. */
function isCommercial(raw: OfferLike, formData: Record<string, unknown>, loanType?: string): boolean {
  return (loanType ?? raw.LoanType ?? formData.loanType) === 'commercial';
}

/**
 * Reads one offer. The search form's values fill in what the lender leaves out (the deposit fallback
 * uses the purchase price or current value; the TMC estimate uses the loan term).
 */
export function readLoanOffer(
  raw: OfferLike,
  formData: Record<string, unknown> = {},
  loanType?: string,
): LoanOffer {
  const lender = raw.LenderName ?? raw.Lender;
  const withForm: OfferLike = {
    ...raw,
    PurchasePrice: raw.PurchasePrice ?? formData.purchasePrice,
    CurrentValue: raw.CurrentValue ?? formData.currentValue,
  };
  const profit = profitOf(raw);
  const deposit = depositOf(withForm);
  const termMonths = parseNumber(formData.loanTerm) ?? undefined;
  return {
    raw,
    source: withForm,
    lenderName: typeof lender === 'string' && lender.trim() ? lender : '',
    grossLoan: grossLoanOf(raw),
    netLoan: netLoanOf(raw),
    interestRate: parseNumber(raw.InterestRate),
    trueMonthlyCost: trueMonthlyCostOf(raw, termMonths),
    profit,
    deposit,
    monthlyPayment: parseNumber(raw.MonthlyPayment),
    arrangementFee: arrangementFeeOf(raw),
    arrangementFeePercent: parseNumber(raw.ArrangementFeePercOfValue ?? raw.ArrangementFeeRate),
    exitFee: exitFeeOf(raw),
    otherLenderCosts: parseNumber(raw.OtherLenderCosts),
    totalLenderCosts: parseNumber(raw.TotalLenderCosts ?? raw.LenderCosts ?? raw.LenderFees),
    loanInterest: parseNumber(raw.LoanInterest),
    loanToValue: parseNumber(raw.LoanToValue),
    loanToValueNet: parseNumber(raw.LoanToValueNet),
    purchasePrice: parseNumber(raw.PurchasePrice),
    propertyValue: parseNumber(raw.PropertyValue),
    buildCost: parseNumber(raw.BuildCost),
    totalBuildCost: parseNumber(raw.TotalBuildCost),
    buildLoan: parseNumber(raw.BuildLoan),
    landLoan: parseNumber(raw.LandLoan),
    mortgageTerm: parseNumber(raw.MortgageTerm),
    lifetimeCost: isCommercial(raw, formData, loanType) ? commercialLifetimeCost(raw) : null,
    roce: profit !== null && deposit !== null ? returnOnCapitalEmployed(profit, deposit) : null,
  };
}

export function readLoanOffers(
  raws: readonly OfferLike[],
  formData: Record<string, unknown> = {},
  loanType?: string,
): LoanOffer[] {
  return raws
    .filter((raw) => raw && typeof raw === 'object')
    .map((raw) => readLoanOffer(raw, formData, loanType));
}

/** Two offers are the same deal when gross loan and interest rate match (the spec's compare rule). */
export function isSameDeal(
  a: Pick<LoanOffer, 'grossLoan' | 'interestRate'>,
  b: Pick<LoanOffer, 'grossLoan' | 'interestRate'>,
): boolean {
  return a.grossLoan === b.grossLoan && a.interestRate === b.interestRate;
}
