import {
  hasActiveFilters,
  isSorted,
  nextSortState,
  effectiveSort,
  offerPassesFilters,
  sortOffers,
  INITIAL_SORT,
  type SortKey,
  type SortState,
} from '@lsp/contracts';
import type { LoanOffer } from '../shared/loan-offer';

export { hasActiveFilters, isSorted, nextSortState, INITIAL_SORT, type SortKey, type SortState };

/** The filter inputs' text, empty meaning "not set". */
export interface FilterState {
  interestRateMax: string;
  profitMin: string;
  depositMax: string;
}

export const EMPTY_FILTERS: FilterState = { interestRateMax: '', profitMin: '', depositMax: '' };

/**
 * The sort buttons. `label` is what the button shows and `sorts` names the figure it orders by: the
 * product's Rate sort orders by true monthly cost (the interest rate only where no TMC is quoted), so
 * beside a rate column its button says so rather than let 'Rate' be read as the interest rate.
 */
export const SORT_BUTTONS: ReadonlyArray<{ key: SortKey; label: string; sorts: string }> = [
  { key: 'interestRate', label: 'Rate (TMC)', sorts: 'Rate (true monthly cost)' },
  { key: 'profit', label: 'Profit', sorts: 'Profit' },
  { key: 'deposit', label: 'Deposit', sorts: 'Deposit' },
  { key: 'netLoan', label: 'Net Loan', sorts: 'Net Loan' },
];

/**
 * Filters then sorts with the shared rules (so the numbers the cards show and the numbers the filter
 * compares come from the same readers). With no sort chosen the order is net loan descending.
 */
export function applyResultsView(
  offers: readonly LoanOffer[],
  filters: FilterState,
  sort: SortState,
): LoanOffer[] {
  const kept = offers.filter((offer) => offerPassesFilters(offer.source, filters));
  const bySource = new Map(kept.map((offer) => [offer.source, offer]));
  return sortOffers(
    kept.map((offer) => offer.source),
    sort,
  ).map((source) => bySource.get(source) as LoanOffer);
}

/** The direction a sort button shows: the sort in force, the default (net loan descending) included. */
export function sortDirectionFor(sort: SortState, key: SortKey): 'asc' | 'desc' | 'none' {
  const inForce = effectiveSort(sort);
  return inForce.key === key ? inForce.direction : 'none';
}

/** True when the order shown is the default one, not one the person chose. */
export function isDefaultOrder(sort: SortState): boolean {
  return !isSorted(sort);
}

export function resultsCountLabel(shown: number, total: number): string {
  return `${shown} of ${total} results`;
}
