// Search results carried in a browser-history entry. /loan-results takes its held results out of
// browser storage once it has read them, so a second visit finds none: the page keeps what it showed
// in its own history entry, and Back from an offer's details (or from Apply Now) returns to the same
// results, while a new visit to /loan-results without a search still finds nothing and goes home.
// Results shown on the search page go on to /results-gate the same way, in the navigation's state,
// so that leaving the gate with Back leaves nothing held in storage behind it.
import type { PendingLoanResults } from '@lsp/contracts';
import { isLoanType } from '../shared/loan-type';

const HISTORY_KEY = 'loanResults';

/** The history-entry state that carries results to /results-gate or keeps them on /loan-results. */
export function loanResultsHistoryState(shown: PendingLoanResults): Record<string, unknown> {
  return { [HISTORY_KEY]: shown };
}

/** The results this history entry carries, or null when it holds none. */
export function loanResultsFromHistory(state: unknown): PendingLoanResults | null {
  if (!state || typeof state !== 'object') return null;
  const kept = (state as Record<string, unknown>)[HISTORY_KEY];
  if (!kept || typeof kept !== 'object') return null;
  const entry = kept as Partial<PendingLoanResults>;
  if (!Array.isArray(entry.results) || !isLoanType(entry.loanType)) return null;
  const formData =
    entry.formData && typeof entry.formData === 'object' && !Array.isArray(entry.formData)
      ? entry.formData
      : {};
  return {
    results: entry.results,
    formData,
    userData: entry.userData ?? null,
    timestamp: typeof entry.timestamp === 'number' ? entry.timestamp : 0,
    loanType: entry.loanType,
    ...(typeof entry.searchRunId === 'string' && entry.searchRunId ? { searchRunId: entry.searchRunId } : {}),
  };
}
