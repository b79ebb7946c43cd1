import {
  PROFIT_HIGHLIGHT_THRESHOLD,
  formatCurrency,
  formatInterestPm,
  formatPercent1dp,
  formatPercent2dp,
  formatTrueMonthlyCost,
} from '@lsp/contracts';
import type { CompareFormat } from '../compare/compare-rows';
import type { LoanOffer } from '../shared/loan-offer';

export const lenderTitle = (offer: LoanOffer) => offer.lenderName || 'Lender Details';
export const money = (value: number | null) => formatCurrency(value);
export const ratePm = (offer: LoanOffer) => formatInterestPm(offer.interestRate);
export const tmc = (offer: LoanOffer) => formatTrueMonthlyCost(offer.trueMonthlyCost);
export const arrangementFee = (offer: LoanOffer) =>
  offer.arrangementFee === null ? 'Contact for fee' : formatCurrency(offer.arrangementFee);
export const percent1 = (value: number | null) => formatPercent1dp(value);
export const roce = (offer: LoanOffer) => (offer.roce === null ? null : formatPercent2dp(offer.roce));
export const isStrongProfit = (offer: LoanOffer) =>
  offer.profit !== null && offer.profit > PROFIT_HIGHLIGHT_THRESHOLD;

export function formatCompareValue(offer: LoanOffer, field: keyof LoanOffer, format: CompareFormat): string {
  const value = offer[field] as number | null;
  switch (format) {
    case 'ratePm':
      return formatInterestPm(value);
    case 'tmc':
      return formatTrueMonthlyCost(value);
    case 'percent':
      return formatPercent1dp(value);
    default:
      return field === 'arrangementFee' && value === null ? 'Contact for fee' : formatCurrency(value);
  }
}
