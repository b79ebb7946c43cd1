import { PENDING_RESULTS_VALIDITY_MS, STORAGE_KEYS } from '@lsp/contracts';
import { PENDING_RESULTS_EVENT, readStoredJson } from '@lsp/ui';

export { pendingSearchRunId } from './pending-search-run';

/** Search results held back until the visitor has an account ("Pending results"). */
export interface PendingLoanResults {
  results?: unknown;
  formData?: Record<string, unknown>;
  userData?: { name?: string; fullName?: string; email?: string; phone?: string };
  timestamp?: number;
  loanType?: string;
  /** The Lendability Score the search service gave the lead (written by the search remote). */
  lendabilityScore?: { score?: unknown; tips?: unknown };
  /** The run the results came from (the search answer's SearchRunId; written by the search remote). */
  searchRunId?: unknown;
}

/** The held lead's score, when it is well formed. */
export function pendingLendabilityScore(
  pending: PendingLoanResults | null,
): { score: number; tips: string[] } | null {
  const held = pending?.lendabilityScore;
  if (!held || typeof held.score !== 'number' || !Number.isFinite(held.score)) return null;
  const tips = Array.isArray(held.tips) ? held.tips.filter((t): t is string => typeof t === 'string') : [];
  return { score: held.score, tips };
}

export function readPendingResults(): PendingLoanResults | null {
  const pending = readStoredJson<PendingLoanResults>(STORAGE_KEYS.pendingLoanResults);
  return pending && typeof pending === 'object' ? pending : null;
}

/** Results held under an hour ago: what sign-in should take the person to. */
export function holdsFreshPendingResults(now = Date.now()): boolean {
  const pending = readPendingResults();
  return (
    pendingResultCount(pending) > 0 &&
    typeof pending?.timestamp === 'number' &&
    now - pending.timestamp < PENDING_RESULTS_VALIDITY_MS
  );
}

/** How many lender options the pending results hold (a list, or an object with Results). */
export function pendingResultCount(pending: PendingLoanResults | null): number {
  const results = pending?.results;
  if (Array.isArray(results)) return results.length;
  if (results && typeof results === 'object' && Array.isArray((results as { Results?: unknown }).Results)) {
    return (results as { Results: unknown[] }).Results.length;
  }
  return 0;
}

/** One second after login, pending loan results in storage are announced for processing. */
export function announcePendingResultsSoon(): void {
  window.setTimeout(() => {
    if (readPendingResults())
      window.dispatchEvent(new CustomEvent(PENDING_RESULTS_EVENT, { detail: readPendingResults() }));
  }, 1000);
}
