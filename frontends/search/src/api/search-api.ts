// The calls the search remote makes (spec §7), over @lsp/ui's shared helpers: relative URLs, cookies,
// JSON, and a 401 anywhere sending the browser to /login?next=<here>.
import { apiRequest, apiSend, ApiError, fetchSessionUser, redirectToLogin, type SessionUser } from '@lsp/ui';
import type { LoanType } from '../lib/loan-type';
import type { RawLoanResult } from '../lib/loan-offer';

export type { SessionUser };
export { fetchSessionUser, ApiError };

export interface SearchResponse {
  success?: boolean;
  message?: string;
  error?: string;
  data?: { Results?: RawLoanResult[]; LendabilityScore?: LendabilityScoreAnswer } | null;
  debugInfo?: Record<string, unknown>;
}

function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message) return record.message;
    if (typeof record.error === 'string' && record.error) return record.error;
  }
  return fallback;
}

/** POST /api/{development|bridging|commercial}. */
export async function runLoanSearch(
  loanType: LoanType,
  payload: Record<string, unknown>,
): Promise<SearchResponse> {
  return (await apiRequest<SearchResponse>('POST', `/api/${loanType}`, payload)) ?? {};
}

export interface LeadPayload {
  name: string;
  email: string;
  phone?: string;
  propertiesOwned: string;
  contactPreference: string;
  consent: boolean;
  searchType: LoanType;
  searchPayload: Record<string, unknown>;
}

/** The Lendability Score as the search service sends it (score out of 100, tips below 70). */
export interface LendabilityScoreAnswer {
  score: number;
  band?: string;
  tips?: string[];
}

/** POST /api/leads (bridging and commercial); resolves the score the server worked out. */
export async function postLead(lead: LeadPayload): Promise<LendabilityScoreAnswer | null> {
  const answer = await apiRequest<{ lendabilityScore?: LendabilityScoreAnswer }>('POST', '/api/leads', lead);
  return answer?.lendabilityScore ?? null;
}

export interface SaveSearchBody {
  userId: string;
  loanType: LoanType;
  searchData: Record<string, unknown>;
  apiResponse: unknown;
}

/**
 * POST /api/search; returns the saved search's id. Failures throw with the server's message (the
 * search flow retries once when it speaks of the user id or "not found"). No redirect on 401: the
 * flow then holds the results and sends the visitor to create an account.
 */
export async function saveSearch(body: SaveSearchBody): Promise<string> {
  const answer = await apiSend<{
    search?: { id?: string | number };
    id?: string | number;
    message?: string;
    error?: string;
  }>('POST', '/api/search', body);
  if (!answer.ok)
    throw new ApiError(
      messageOf(answer.data, `API request failed: ${answer.status}`),
      answer.status,
      answer.data,
    );
  const id = answer.data?.search?.id ?? answer.data?.id;
  if (id === undefined || id === null) throw new Error('Saved search has no id');
  return String(id);
}

export interface SaveLeadInfoBody {
  userId: string;
  leadInfo: Record<string, unknown>;
  searchData: Record<string, unknown>;
}

/** POST /api/save-lead-info; resolves true on success, false when the server says no. */
export async function saveLeadInfo(body: SaveLeadInfoBody): Promise<boolean> {
  const answer = await apiSend<{ success?: boolean; error?: string }>('POST', '/api/save-lead-info', body);
  if (answer.status === 401) {
    redirectToLogin();
    return false;
  }
  return answer.ok && answer.data?.success !== false;
}

export type SearchResultRecord = Record<string, unknown>;

/**
 * GET /api/search-result/{id}. 401 goes to login (the shared helper does it); every other failure
 * keeps its status so the page can tell 403 ('Access denied') from the rest.
 */
export async function fetchSearchResult(id: string): Promise<SearchResultRecord> {
  const body = await apiRequest<SearchResultRecord>('GET', `/api/search-result/${encodeURIComponent(id)}`);
  return body ?? {};
}
