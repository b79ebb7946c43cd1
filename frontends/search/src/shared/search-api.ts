// The calls the search remote makes, over @lsp/ui's typed client: each names its declared
// operation, so the inputs and answers are the contracts' own types; a 401 sends the browser to
// /login?next=<here> unless the call says otherwise.
import {
  type ApiInput,
  type ApiResult,
  ApiError,
  callApi,
  fetchSessionUser,
  redirectToLogin,
  requestApi,
  type SessionUser,
} from '@lsp/ui';
import type { LoanType } from './loan-type';

export type { SessionUser };
export { fetchSessionUser, ApiError };

/** The answer of a search; the three loan types' searches share one contract. */
export type SearchResponse = ApiResult<'bridgingSearch'>;

function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message) return record.message;
    if (typeof record.error === 'string' && record.error) return record.error;
  }
  return fallback;
}

type SearchOperation = `${LoanType}Search`;

/**
 * POST /api/{development|bridging|commercial}. The payload is the loan type's form values, already
 * checked by the form against the same contract schema the service validates with.
 */
export async function runLoanSearch(
  loanType: LoanType,
  payload: Record<string, unknown>,
): Promise<SearchResponse> {
  const operation: SearchOperation = `${loanType}Search`;
  return requestApi(operation, { body: payload as ApiInput<SearchOperation>['body'] });
}

export type LeadPayload = ApiInput<'captureLead'>['body'];

/** The Lendability Score as the search service sends it (score out of 100, tips below 70). */
export type LendabilityScoreAnswer = ApiResult<'captureLead'>['lendabilityScore'];

/** POST /api/leads (bridging and commercial); resolves the score the server worked out. */
export async function postLead(lead: LeadPayload): Promise<LendabilityScoreAnswer | null> {
  const answer = await requestApi('captureLead', { body: lead });
  return answer.lendabilityScore ?? null;
}

export type SaveSearchBody = ApiInput<'saveSearch'>['body'];

/**
 * POST /api/search; returns the saved search's id. Failures throw with the server's message (the
 * search flow retries once when it speaks of the user id or "not found"). No redirect on 401: the
 * flow then holds the results and sends the visitor to create an account.
 */
export async function saveSearch(body: SaveSearchBody): Promise<string> {
  const answer = await callApi('saveSearch', { body });
  if (!answer.ok)
    throw new ApiError(
      messageOf(answer.data, `API request failed: ${answer.status}`),
      answer.status,
      answer.data,
    );
  return answer.data.search.id;
}

export type SaveLeadInfoBody = ApiInput<'saveLeadInfo'>['body'];

/** POST /api/save-lead-info; resolves true on success, false when the server says no. */
export async function saveLeadInfo(body: SaveLeadInfoBody): Promise<boolean> {
  const answer = await callApi('saveLeadInfo', { body });
  if (answer.status === 401) {
    redirectToLogin();
    return false;
  }
  return answer.ok;
}

export type SearchResultRecord = ApiResult<'getSearchResult'>;

/**
 * GET /api/search-result/{id}. 401 goes to login (the shared helper does it); every other failure
 * keeps its status so the page can tell 403 ('Access denied') from the rest.
 */
export async function fetchSearchResult(id: string): Promise<SearchResultRecord> {
  return requestApi('getSearchResult', { params: { id } });
}
