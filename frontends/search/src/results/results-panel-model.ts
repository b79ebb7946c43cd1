// The results list's state, kept apart from React so its rules are unit-tested: the filters (as
// typed) and whether they show, the sort cycle, the card layout, the deals picked for Compare (at
// most three) and the open compare and breakdown dialogs. What the list shows is worked out from it
// with the shared filter and sort rules.
import { toggleCompare } from '../compare/compare-selection';
import type { LoanOffer } from '../shared/loan-offer';
import {
  EMPTY_FILTERS,
  INITIAL_SORT,
  applyResultsView,
  hasActiveFilters,
  isSorted,
  nextSortState,
  type FilterState,
  type SortKey,
  type SortState,
} from './results-view';

export interface ResultsPanelState {
  filters: FilterState;
  showFilters: boolean;
  sort: SortState;
  compact: boolean;
  /** The deals picked for Compare, in the order they were picked. */
  selected: LoanOffer[];
  compareOpen: boolean;
  /** The offer whose breakdown is open. */
  details: LoanOffer | null;
}

export const initialResultsPanelState: ResultsPanelState = {
  filters: EMPTY_FILTERS,
  showFilters: false,
  sort: INITIAL_SORT,
  compact: false,
  selected: [],
  compareOpen: false,
  details: null,
};

export type ResultsPanelAction =
  | { kind: 'filters-toggled' }
  | { kind: 'filter-typed'; key: keyof FilterState; value: string }
  | { kind: 'filters-cleared' }
  | { kind: 'sort-pressed'; key: SortKey }
  | { kind: 'layout-chosen'; compact: boolean }
  | { kind: 'compare-toggled'; offer: LoanOffer }
  | { kind: 'compare-open-changed'; open: boolean }
  | { kind: 'details-opened'; offer: LoanOffer }
  | { kind: 'details-closed' };

export function resultsPanelReducer(state: ResultsPanelState, action: ResultsPanelAction): ResultsPanelState {
  switch (action.kind) {
    case 'filters-toggled':
      return { ...state, showFilters: !state.showFilters };
    case 'filter-typed':
      return { ...state, filters: { ...state.filters, [action.key]: action.value } };
    case 'filters-cleared':
      return { ...state, filters: EMPTY_FILTERS };
    case 'sort-pressed':
      return { ...state, sort: nextSortState(state.sort, action.key) };
    case 'layout-chosen':
      return { ...state, compact: action.compact };
    // A pick beyond the limit leaves the selection as it was.
    case 'compare-toggled':
      return { ...state, selected: toggleCompare(state.selected, action.offer) };
    case 'compare-open-changed':
      return { ...state, compareOpen: action.open };
    case 'details-opened':
      return { ...state, details: action.offer };
    case 'details-closed':
      return { ...state, details: null };
  }
}

/** The offers the list shows, filtered and in the order in force. */
export function shownOffers(
  offers: readonly LoanOffer[],
  state: Pick<ResultsPanelState, 'filters' | 'sort'>,
) {
  return applyResultsView(offers, state.filters, state.sort);
}

/** The list's badges: 'Filtered' while a filter is set, 'Sorted' while an order was chosen. */
export function resultsBadges(state: Pick<ResultsPanelState, 'filters' | 'sort'>) {
  return { filtered: hasActiveFilters(state.filters), sorted: isSorted(state.sort) };
}
