import { type PendingLoanResults, PENDING_RESULTS_VALIDITY_MS, STORAGE_KEYS } from '@lsp/contracts';
import type { KeyValueStorage } from './storage-keys';
import { isLoanType } from './loan-type';

/** Results held back until the visitor verifies an email address stay valid for one hour. */
export { PENDING_RESULTS_VALIDITY_MS };

function isPendingResults(value: unknown): value is PendingLoanResults {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return Array.isArray(entry.results) && typeof entry.timestamp === 'number' && isLoanType(entry.loanType);
}

export function storePendingResults(
  storage: KeyValueStorage,
  entry: Omit<PendingLoanResults, 'timestamp'>,
  now: number,
): PendingLoanResults {
  const stored: PendingLoanResults = { ...entry, timestamp: now };
  storage.setItem(STORAGE_KEYS.pendingLoanResults, JSON.stringify(stored));
  return stored;
}

/** Reads the entry whatever its age; malformed entries are removed. */
export function readPendingResults(storage: KeyValueStorage): PendingLoanResults | null {
  const raw = storage.getItem(STORAGE_KEYS.pendingLoanResults);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isPendingResults(parsed))
      return { ...parsed, formData: parsed.formData ?? {}, userData: parsed.userData ?? null };
  } catch {
    // Fall through: a malformed entry is as good as none.
  }
  storage.removeItem(STORAGE_KEYS.pendingLoanResults);
  return null;
}

export function isPendingResultsFresh(entry: PendingLoanResults, now: number): boolean {
  return now - entry.timestamp < PENDING_RESULTS_VALIDITY_MS;
}

/**
 * The home page's view of pending results: an entry under one hour old is returned (and shows the
 * verify-your-email gate); an older one is deleted.
 */
export function readFreshPendingResults(storage: KeyValueStorage, now: number): PendingLoanResults | null {
  const entry = readPendingResults(storage);
  if (!entry) return null;
  if (isPendingResultsFresh(entry, now)) return entry;
  storage.removeItem(STORAGE_KEYS.pendingLoanResults);
  return null;
}

export function clearPendingResults(storage: KeyValueStorage): void {
  storage.removeItem(STORAGE_KEYS.pendingLoanResults);
}
