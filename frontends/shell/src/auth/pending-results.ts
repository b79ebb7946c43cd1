import {
  PENDING_RESULTS_VALIDITY_MS,
  type PendingLendabilityScore,
  type PendingLoanResults,
  STORAGE_KEYS,
} from '@lsp/contracts';
import { PENDING_RESULTS_EVENT, readStoredJson } from '@lsp/ui';

export { pendingSearchRunId } from './pending-search-run';

/** The held lead's score, when it is well formed. */
export function pendingLendabilityScore(pending: PendingLoanResults | null): PendingLendabilityScore | null {
  const held = pending?.lendabilityScore;
  if (!held || typeof held.score !== 'number' || !Number.isFinite(held.score)) return null;
  const tips = Array.isArray(held.tips) ? held.tips.filter((t): t is string => typeof t === 'string') : [];
  return { score: held.score, tips };
}

/** The held results as stored; storage can hold anything, so each reader checks the fields it uses. */
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
