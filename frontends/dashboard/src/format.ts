// GBP without decimals (en-GB), dates en-GB, DIP rates are a fraction × 100 with 2 decimals.
// Money and dates come from the one en-GB helper in @lsp/contracts (also used by the search remote, the
// PDF and the emails), so a figure or a date reads the same everywhere.
// The module itself, not the package's index: the dashboard's first load must not carry every schema.
import { formatCurrency, formatUkDate } from '@lsp/contracts/src/display/format';

/** Whole pounds; a missing or unreadable amount is the dash, a negative one £0. */
export const formatGbp = (value: unknown): string => formatCurrency(value);

/** en-GB short date (26/11/2026), in UK time. */
export const formatDate = (value: string | null | undefined): string => formatUkDate(value);

export const LOAN_TYPE_LABELS: Record<string, string> = {
  development: 'Development',
  bridging: 'Bridging',
  commercial: 'Commercial',
};

export function loanTypeLabel(loanType: string): string {
  return LOAN_TYPE_LABELS[loanType] ?? (loanType ? loanType[0].toUpperCase() + loanType.slice(1) : 'Loan');
}
