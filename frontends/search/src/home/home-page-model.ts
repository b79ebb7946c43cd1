// The home page's state, kept apart from React so its rules are unit-tested: the loan type and its
// form (seeded anew on each choice or unlocking), the lead dialog and the search values waiting for
// it, the search running behind the overlay, the results held for verification, and the results
// shown. What each search outcome does to the page is decided here; the calls, toasts, storage and
// navigation are the component's.
import type { PendingLendabilityScore, PendingLoanResults } from '@lsp/contracts';
import type { ReadinessAnswers } from '../leads/lead-capture-modal';
import type { LoanType } from '../shared/loan-type';
import type { SearchOutcome } from './search-flow';

export interface ShownResults {
  /** Set when the search was saved to the signed-in user's account. */
  searchId?: string;
  /** The Lendability Score the lead was given (anonymous searches only), shown above the offers. */
  lendabilityScore?: PendingLendabilityScore | null;
  /** The search run the offers came from (Send Deal shares the server's record of an offer). */
  searchRunId?: string;
  loanType: LoanType;
  formData: Record<string, unknown>;
  results: PendingLoanResults['results'];
}

/** What the form starts from; a new key mounts a fresh form. */
export interface FormSeed {
  key: number;
  values: Record<string, unknown> | null;
}

/** A search asked for by someone not signed in, waiting for the lead dialog. */
export interface WaitingSearch {
  loanType: LoanType;
  values: Record<string, unknown>;
}

export interface HomeState {
  loanType: LoanType | null;
  formSeed: FormSeed;
  /** The search values waiting for the lead dialog; cleared once the search has run or the dialog is closed. */
  waiting: WaitingSearch | null;
  leadOpen: boolean;
  running: boolean;
  /** Results held until the email is verified (the verify gate shows while they are). */
  pending: PendingLoanResults | null;
  results: ShownResults | null;
}

export const initialHomeState: HomeState = {
  loanType: null,
  formSeed: { key: 0, values: null },
  waiting: null,
  leadOpen: false,
  running: false,
  pending: null,
  results: null,
};

export type HomeAction =
  | { kind: 'loan-type-chosen'; loanType: LoanType }
  | { kind: 'lead-asked'; search: WaitingSearch }
  | { kind: 'lead-given' }
  | { kind: 'lead-dismissed' }
  | { kind: 'search-started' }
  /**
   * The search flow ended (a failure at once, anything else once the overlay finished). `held` is
   * what storage holds for verification after a held outcome.
   */
  | { kind: 'search-settled'; loanType: LoanType; outcome: SearchOutcome; held: PendingLoanResults | null }
  | { kind: 'pending-read'; entry: PendingLoanResults | null }
  | { kind: 'pending-dismissed' }
  | { kind: 'pending-unlocked'; entry: PendingLoanResults }
  | { kind: 'unlocked-search-saved'; searchId: string };

/** Held results as the page shows them once unlocked (an anonymous search has no saved id yet). */
export function shownFromPending(entry: PendingLoanResults): ShownResults {
  return {
    loanType: entry.loanType,
    formData: entry.formData,
    results: entry.results,
    searchRunId: entry.searchRunId,
    lendabilityScore: entry.lendabilityScore ?? null,
  };
}

function nextSeed(seed: FormSeed, values: Record<string, unknown> | null): FormSeed {
  return { key: seed.key + 1, values };
}

export function homeReducer(state: HomeState, action: HomeAction): HomeState {
  switch (action.kind) {
    case 'loan-type-chosen':
      return { ...state, loanType: action.loanType, formSeed: nextSeed(state.formSeed, null) };
    case 'lead-asked':
      return { ...state, waiting: action.search, leadOpen: true };
    // The values stay waiting while the search they start runs.
    case 'lead-given':
      return { ...state, leadOpen: false };
    case 'lead-dismissed':
      return { ...state, leadOpen: false, waiting: null };
    case 'search-started':
      return { ...state, results: null, pending: null, running: true };
    case 'search-settled': {
      const settled = { ...state, running: false, waiting: null };
      const { outcome } = action;
      if (outcome.kind === 'shown')
        return {
          ...settled,
          results: {
            searchId: outcome.searchId,
            searchRunId: outcome.searchRunId,
            loanType: action.loanType,
            formData: outcome.formData,
            results: outcome.results,
            lendabilityScore: outcome.lendabilityScore,
          },
        };
      if (outcome.kind === 'held-for-verification') return { ...settled, pending: action.held };
      return settled;
    }
    case 'pending-read':
      return { ...state, pending: action.entry };
    case 'pending-dismissed':
      return { ...state, pending: null };
    case 'pending-unlocked':
      return {
        ...state,
        loanType: action.entry.loanType,
        formSeed: nextSeed(state.formSeed, action.entry.formData),
        results: shownFromPending(action.entry),
        pending: null,
      };
    // Saving can finish after another search replaced the results; only shown results take the id.
    case 'unlocked-search-saved':
      return state.results ? { ...state, results: { ...state.results, searchId: action.searchId } } : state;
  }
}

/** The form's React key: a new type or a new seed mounts a fresh form. */
export function formKey(state: Pick<HomeState, 'loanType' | 'formSeed'>): string {
  return `${state.loanType}-${state.formSeed.key}`;
}

/** The read-only readiness answers the lead dialog shows for the search waiting on it. */
export function waitingReadiness(waiting: WaitingSearch | null): ReadinessAnswers | null {
  if (!waiting) return null;
  return {
    hasViewedProperty: waiting.values.hasViewedProperty === true,
    ownsProperty: waiting.values.ownsProperty === true,
    agreedPurchasePrice: waiting.values.agreedPurchasePrice === true,
  };
}

export type ResultsArea =
  | { kind: 'searching' }
  | { kind: 'verify-gate'; pending: PendingLoanResults }
  | { kind: 'results'; results: ShownResults }
  | { kind: 'empty' };

/** What the area below the form shows: the search under way, the verify gate, the results, or nothing. */
export function resultsArea(state: Pick<HomeState, 'running' | 'pending' | 'results'>): ResultsArea {
  if (state.running) return { kind: 'searching' };
  if (state.pending) return { kind: 'verify-gate', pending: state.pending };
  if (state.results) return { kind: 'results', results: state.results };
  return { kind: 'empty' };
}
