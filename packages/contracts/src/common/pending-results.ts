import type { OfferLike } from '../display/offer';
import type { LoanType } from './enums';

/** The lead given with a search, kept with the held results. */
export interface PendingLeadData {
  name?: string;
  /** Readers take `name` first and fall back to this. */
  fullName?: string;
  email?: string;
  phone?: string;
  propertiesOwned?: string;
  contactPreference?: string;
  consent?: boolean;
}

/** The Lendability Score the server gave the lead: shown after the lead. */
export interface PendingLendabilityScore {
  score: number;
  tips: string[];
}

/**
 * Search results held in browser storage (STORAGE_KEYS.pendingLoanResults) until the visitor verifies
 * an email address or has an account: the search remote writes them, the shell reads them after sign-up
 * and sign-in. They count as fresh for PENDING_RESULTS_VALIDITY_MS after `timestamp`. Storage can hold
 * anything, so a reader checks each field before it trusts it.
 */
export interface PendingLoanResults {
  results: OfferLike[];
  formData: Record<string, unknown>;
  userData: PendingLeadData | null;
  /** When the results were held (ms since the epoch). */
  timestamp: number;
  loanType: LoanType;
  lendabilityScore?: PendingLendabilityScore;
  /**
   * The run these results came from (the search answer's SearchRunId): the server saves its own record
   * of that run, for this browser after verification and for the account being created.
   */
  searchRunId?: string;
}
