import { type OfferLike, STORAGE_KEYS } from '@lsp/contracts';
import type { LoanType } from '../shared/loan-type';
import type { KeyValueStorage } from '../shared/storage-keys';
import { isLoanType } from '../shared/loan-type';

export interface PendingApplication {
  formData: Record<string, unknown>;
  selectedLoan: OfferLike;
  loanType: LoanType;
  timestamp: number;
  /** The saved search the offer came from, when it was saved to the account (the application is tied to it). */
  searchId?: string;
}

/** Continue Application: remember the chosen offer and the search behind it for the application pages. */
export function storePendingApplication(
  storage: KeyValueStorage,
  entry: Omit<PendingApplication, 'timestamp'>,
  now: number,
): PendingApplication {
  const { searchId, ...rest } = entry;
  const stored: PendingApplication = { ...rest, timestamp: now, ...(searchId ? { searchId } : {}) };
  storage.setItem(STORAGE_KEYS.pendingApplication, JSON.stringify(stored));
  storage.setItem(STORAGE_KEYS.selectedLoan, JSON.stringify(entry.selectedLoan));
  storage.setItem(
    STORAGE_KEYS.searchFormData,
    JSON.stringify({ ...entry.formData, loanType: entry.loanType }),
  );
  return stored;
}

export function readPendingApplication(storage: KeyValueStorage): PendingApplication | null {
  const raw = storage.getItem(STORAGE_KEYS.pendingApplication);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<PendingApplication>;
    if (
      parsed &&
      typeof parsed.selectedLoan === 'object' &&
      parsed.selectedLoan &&
      isLoanType(parsed.loanType)
    ) {
      return {
        formData: parsed.formData ?? {},
        selectedLoan: parsed.selectedLoan,
        loanType: parsed.loanType,
        timestamp: Number(parsed.timestamp) || 0,
        ...(typeof parsed.searchId === 'string' && parsed.searchId ? { searchId: parsed.searchId } : {}),
      };
    }
  } catch {
    // A damaged entry is treated as no application in progress.
  }
  return null;
}
