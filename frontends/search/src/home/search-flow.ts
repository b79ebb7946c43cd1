import {
  type LeadForm,
  type OfferLike,
  type PendingLeadData,
  type PendingLendabilityScore,
  STORAGE_KEYS,
} from '@lsp/contracts';
import type {
  LeadPayload,
  LendabilityScoreAnswer,
  SaveSearchBody,
  SearchResponse,
  SessionUser,
} from '../shared/search-api';
import { LOAN_TYPE_INFO, type LoanType } from '../shared/loan-type';
import { clearPendingResults, storePendingResults } from '../shared/pending-results';
import { addToHistory } from '../history/search-history';
import type { KeyValueStorage } from '../shared/storage-keys';

export interface ToastMessage {
  title: string;
  description?: string;
  variant: 'success' | 'error' | 'info';
}

export interface SearchFlowDeps {
  runSearch(loanType: LoanType, payload: Record<string, unknown>): Promise<SearchResponse>;
  /** POST /api/leads; resolves the Lendability Score the server worked out, when it gave one. */
  postLead(lead: LeadPayload): Promise<LendabilityScoreAnswer | null>;
  currentUser(): Promise<SessionUser | null>;
  saveSearch(body: SaveSearchBody): Promise<string>;
  storage: KeyValueStorage;
  now(): number;
  log(message: string, error?: unknown): void;
  /**
   * Opens a correlation journey for an anonymous visitor, so the search, the lead and the account
   * that follow carry one correlation id (the operations console's chain).
   */
  startJourney(): void;
}

export type SearchOutcome =
  /** The search failed; the overlay closes and nothing else changes. */
  | { kind: 'failed'; toast: ToastMessage }
  /** Signed in and saved: the results are shown on the page. */
  | {
      kind: 'shown';
      results: OfferLike[];
      formData: Record<string, unknown>;
      searchId: string;
      /** The run the offers came from (the answer's SearchRunId), when the answer names one. */
      searchRunId?: string;
      userId: string;
      toast: ToastMessage;
      lendabilityScore: PendingLendabilityScore | null;
    }
  /** Signed in but the email is not verified: results are held and the verify gate shows. */
  | { kind: 'held-for-verification'; toast: ToastMessage }
  /** Not signed in (or the save failed): results are held and the browser goes to /create-account. */
  | { kind: 'create-account'; toast: ToastMessage };

const SEARCH_FAILED: ToastMessage = {
  title: 'Search failed',
  description: 'Please try again or contact support',
  variant: 'error',
};

/** A save that failed because the server did not know the user is worth one retry after a session re-check. */
function isUnknownUserError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /user ?id|not found/i.test(message);
}

function leadData(lead: LeadForm | null): PendingLeadData | null {
  if (!lead) return null;
  return {
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    propertiesOwned: lead.propertiesOwned,
    contactPreference: lead.contactPreference,
    consent: lead.consent,
  };
}

async function saveWithRetry(
  deps: SearchFlowDeps,
  user: SessionUser,
  body: Omit<SaveSearchBody, 'userId'>,
): Promise<{ id: string; userId: string } | null> {
  try {
    return { id: await deps.saveSearch({ ...body, userId: user.id }), userId: user.id };
  } catch (error) {
    deps.log('Failed to save search', error);
    if (!isUnknownUserError(error)) return null;
  }
  const rechecked = await deps.currentUser();
  if (!rechecked) return null;
  try {
    return { id: await deps.saveSearch({ ...body, userId: rechecked.id }), userId: rechecked.id };
  } catch (error) {
    deps.log('Failed to save search after re-checking the session', error);
    return null;
  }
}

/** The score as the page keeps it: the number and the improvement tips (shown below 70). */
export function readLendabilityScore(answer: unknown): PendingLendabilityScore | null {
  if (!answer || typeof answer !== 'object') return null;
  const record = answer as Record<string, unknown>;
  if (typeof record.score !== 'number' || !Number.isFinite(record.score)) return null;
  const tips = Array.isArray(record.tips)
    ? record.tips.filter((t): t is string => typeof t === 'string')
    : [];
  return { score: record.score, tips };
}

/**
 * One search run (spec section 4): clear what the last search left, attach the user id only when the
 * session check succeeds, send the lead (development: inside the search request; bridging and
 * commercial: to /api/leads, spec section 4), call the lender search, record history, then either save and
 * show the results (signed in) or hold them for an hour and send the visitor to create an account.
 */
export async function runSearchFlow(
  deps: SearchFlowDeps,
  loanType: LoanType,
  formValues: Record<string, unknown>,
  lead: LeadForm | null,
): Promise<SearchOutcome> {
  clearPendingResults(deps.storage);
  deps.storage.setItem(STORAGE_KEYS.searchFormData, JSON.stringify({ ...formValues, loanType }));

  const userAtStart = await deps.currentUser();
  if (!userAtStart) deps.startJourney();
  const payload = userAtStart ? { ...formValues, userId: userAtStart.id } : { ...formValues };

  // Development's lead travels with the search request (the search service scores it and records it
  // with the run); bridging and commercial post it to /api/leads first, so it is kept even if the
  // search then fails, and a failure to record it never costs the visitor their results.
  const leadInSearch = lead !== null && loanType === 'development';
  let score: PendingLendabilityScore | null = null;
  if (lead && !leadInSearch) {
    try {
      score = readLendabilityScore(
        await deps.postLead({ ...lead, searchType: loanType, searchPayload: payload }),
      );
    } catch (error) {
      deps.log('Failed to record lead', error);
    }
  }

  let response: SearchResponse;
  try {
    response = await deps.runSearch(loanType, leadInSearch ? { ...payload, lead } : payload);
  } catch (error) {
    deps.log('Search request failed', error);
    return { kind: 'failed', toast: SEARCH_FAILED };
  }
  // A failed call throws; an answer without its list of offers (a proxy's page, say) fails here.
  const results = response?.data?.Results;
  if (!Array.isArray(results)) return { kind: 'failed', toast: SEARCH_FAILED };
  if (loanType === 'bridging' && results.length === 0) {
    return {
      kind: 'failed',
      toast: lead
        ? {
            title: 'No matching loan results',
            description: 'No matching loan results. Check your email to verify your address.',
            variant: 'info',
          }
        : {
            title: 'Search failed',
            description: 'No loan results found for your criteria',
            variant: 'error',
          },
    };
  }

  if (leadInSearch) score = readLendabilityScore(response.data?.LendabilityScore);

  addToHistory(deps.storage, loanType, formValues, deps.now(), deps.log);
  const toast: ToastMessage = {
    title: 'Search completed successfully',
    description: lead
      ? 'Check your email to verify and view results'
      : `Found ${results.length} ${LOAN_TYPE_INFO[loanType].optionsLabel}`,
    variant: 'success',
  };

  const hold = () =>
    storePendingResults(
      deps.storage,
      {
        results,
        formData: formValues,
        userData: leadData(lead),
        loanType,
        ...(score ? { lendabilityScore: score } : {}),
        ...(typeof response.data?.SearchRunId === 'string' ? { searchRunId: response.data.SearchRunId } : {}),
      },
      deps.now(),
    );
  const user = await deps.currentUser();
  if (user && user.verified === false) {
    hold();
    return { kind: 'held-for-verification', toast };
  }
  if (user) {
    const saved = await saveWithRetry(deps, user, {
      loanType,
      searchData: formValues,
      apiResponse: response,
    });
    if (saved)
      return {
        kind: 'shown',
        results,
        formData: formValues,
        searchId: saved.id,
        ...(typeof response.data?.SearchRunId === 'string' ? { searchRunId: response.data.SearchRunId } : {}),
        userId: saved.userId,
        toast,
        lendabilityScore: score,
      };
  }
  hold();
  return { kind: 'create-account', toast };
}
