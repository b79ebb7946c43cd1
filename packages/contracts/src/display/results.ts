import type { SortDirection, SortKey } from '../common/enums';
import { depositOf, netLoanOf, profitOf, rateOf, type OfferLike } from './offer';
import { parseNumber } from './numbers';

/** Filter state as the filter inputs hold it: text or number, empty meaning "not set". */
export interface OfferFilters {
  interestRateMax?: unknown;
  profitMin?: unknown;
  depositMax?: unknown;
}

export interface SortState {
  key: SortKey | null;
  direction: SortDirection;
}

export const INITIAL_SORT: SortState = { key: null, direction: 'none' };

/** The order shown when no sort is chosen ('Default sort: net loan descending'). */
export const DEFAULT_SORT: { key: SortKey; direction: 'desc' } = { key: 'netLoan', direction: 'desc' };

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Empty filters are ignored; a filter that does not parse counts as 0. */
function filterValue(value: unknown): number | null {
  if (isEmpty(value)) return null;
  return parseNumber(value) ?? 0;
}

export function hasActiveFilters(filters: OfferFilters): boolean {
  return [filters.interestRateMax, filters.profitMin, filters.depositMax].some((value) => !isEmpty(value));
}

/**
 * Keeps an offer only if its rate (TrueMonthlyCost or InterestRate, ×100) is not above the maximum,
 * its profit is not below the minimum and its deposit is not above the maximum.
 */
export function offerPassesFilters(offer: OfferLike, filters: OfferFilters): boolean {
  const rateMax = filterValue(filters.interestRateMax);
  if (rateMax !== null && (rateOf(offer) ?? 0) * 100 > rateMax) return false;
  const profitMin = filterValue(filters.profitMin);
  if (profitMin !== null && (profitOf(offer) ?? 0) < profitMin) return false;
  const depositMax = filterValue(filters.depositMax);
  if (depositMax !== null && (depositOf(offer) ?? 0) > depositMax) return false;
  return true;
}

/**
 * The sort in force: the chosen one, else the default (net loan descending), so the controls can show
 * it and the first click on Net Loan turns it ascending rather than seeming to do nothing.
 */
export function effectiveSort(state: SortState): { key: SortKey; direction: 'asc' | 'desc' } {
  return state.key !== null && state.direction !== 'none'
    ? { key: state.key, direction: state.direction }
    : DEFAULT_SORT;
}

/**
 * Per key: none → descending → ascending → none; choosing another key starts descending. The cycle
 * starts from the sort in force, so with nothing chosen Net Loan is already descending and its first
 * click goes ascending; net loan descending is the default order, kept as "none" (no 'Sorted' badge).
 */
export function nextSortState(current: SortState, key: SortKey): SortState {
  const inForce = effectiveSort(current);
  let next: SortState;
  if (inForce.key !== key) next = { key, direction: 'desc' };
  else if (inForce.direction === 'desc') next = { key, direction: 'asc' };
  else next = INITIAL_SORT;
  return next.key === DEFAULT_SORT.key && next.direction === DEFAULT_SORT.direction ? INITIAL_SORT : next;
}

export function isSorted(state: SortState): boolean {
  return state.key !== null && state.direction !== 'none';
}

const sortValue: Record<SortKey, (offer: OfferLike) => number | null> = {
  interestRate: rateOf,
  profit: profitOf,
  deposit: depositOf,
  netLoan: netLoanOf,
};

/**
 * A sorted copy. With no sort chosen the default order is net loan descending. Offers without the
 * sorted figure go last whichever the direction.
 */
export function sortOffers<T extends OfferLike>(offers: readonly T[], state: SortState): T[] {
  const key: SortKey = isSorted(state) && state.key ? state.key : 'netLoan';
  const direction = isSorted(state) ? state.direction : 'desc';
  const read = sortValue[key];
  return [...offers].sort((a, b) => {
    const va = read(a);
    const vb = read(b);
    if (va === null && vb === null) return 0;
    if (va === null) return 1;
    if (vb === null) return -1;
    return direction === 'asc' ? va - vb : vb - va;
  });
}
