import { type OfferLike, PENDING_RESULTS_VALIDITY_MS, STORAGE_KEYS } from '@lsp/contracts';
import type { KeyValueStorage } from './storage-keys';
import type { LoanType } from './loan-type';
import { isLoanType } from './loan-type';

/** Results held back until the visitor verifies an email address stay valid for one hour. */
export { PENDING_RESULTS_VALIDITY_MS };

export interface PendingLeadData {
  name?: string;
  email?: string;
  phone?: string;
  propertiesOwned?: string;
  contactPreference?: string;
  consent?: boolean;
}

/** The Lendability Score the server gave the lead (spec section 9): shown after the lead. */
export interface PendingLendabilityScore {
  score: number;
  tips: string[];
}

export interface PendingResults {
  results: OfferLike[];
  formData: Record<string, unknown>;
  userData: PendingLeadData | null;
  timestamp: number;
  loanType: LoanType;
  lendabilityScore?: PendingLendabilityScore;
  /**
   * The run these results came from (the search answer's SearchRunId): the server saves its own record
   * of that run, for this browser after verification and for the account being created.
   */
  searchRunId?: string;
}

function isPendingResults(value: unknown): value is PendingResults {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return Array.isArray(entry.results) && typeof entry.timestamp === 'number' && isLoanType(entry.loanType);
}

export function storePendingResults(
  storage: KeyValueStorage,
  entry: Omit<PendingResults, 'timestamp'>,
  now: number,
): PendingResults {
  const stored: PendingResults = { ...entry, timestamp: now };
  storage.setItem(STORAGE_KEYS.pendingLoanResults, JSON.stringify(stored));
  return stored;
}

/** Reads the entry whatever its age; malformed entries are removed. */
export function readPendingResults(storage: KeyValueStorage): PendingResults | null {
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

export function isPendingResultsFresh(entry: PendingResults, now: number): boolean {
  return now - entry.timestamp < PENDING_RESULTS_VALIDITY_MS;
}

/**
 * The home page's view of pending results: an entry under one hour old is returned (and shows the
 * verify-your-email gate); an older one is deleted.
 */
export function readFreshPendingResults(storage: KeyValueStorage, now: number): PendingResults | null {
  const entry = readPendingResults(storage);
  if (!entry) return null;
  if (isPendingResultsFresh(entry, now)) return entry;
  storage.removeItem(STORAGE_KEYS.pendingLoanResults);
  return null;
}

export function clearPendingResults(storage: KeyValueStorage): void {
  storage.removeItem(STORAGE_KEYS.pendingLoanResults);
}
