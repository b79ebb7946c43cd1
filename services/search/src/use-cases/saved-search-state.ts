import { type LoanOffer, type LoanType, type SearchSavedEvent, loanOfferSchema } from '@lsp/contracts';
import type { SavedSearchDocument } from '../data/models/saved-searches';
import type { SearchRunRepository } from '../data/search-runs';

/** Where the server's own record of each search run is read. */
export type RecordedRuns = Pick<SearchRunRepository, 'find'>;

/** What the server keeps of every offer of a run (the search runner's storedOffer). */
export const RECORDED_FIGURES = [
  'LenderName',
  'LenderId',
  'ProductId',
  'GrossLoan',
  'NetLoan',
  'InterestRate',
  'TrueMonthlyCost',
  'LoanToValue',
  'DepositRequired',
  'MonthlyPayment',
  'TotalLenderCosts',
] as const;

/**
 * The offers of a saved search that the server itself produced, with the panel version they were priced
 * under: each posted offer must be a valid
 * offer whose recorded figures equal those of the same lender product in the run the response names.
 * Anything else (no run, a forged rate, an unknown product) is left out, so a DIP can only ever be
 * made from terms the panel really offered.
 */
export async function verifiedOffers(
  runs: RecordedRuns,
  loanType: LoanType,
  runId: string | null,
  posted: unknown[],
): Promise<{ offers: LoanOffer[]; panelVersion?: string }> {
  if (!runId) return { offers: [] };
  const run = await runs.find(loanType, runId);
  const recorded = resultsIn(run?.apiResponse) as Array<Record<string, unknown>>;
  const verified: LoanOffer[] = [];
  for (const item of posted) {
    const parsed = loanOfferSchema.safeParse(item);
    if (!parsed.success || parsed.data.LoanType !== loanType) continue;
    const offer = parsed.data;
    const match = recorded.find((r) => r.LenderId === offer.LenderId && r.ProductId === offer.ProductId);
    if (match && RECORDED_FIGURES.every((field) => match[field] === offer[field])) verified.push(offer);
  }
  return verified.length > 0 && run
    ? { offers: verified, panelVersion: run.panelVersion }
    : { offers: verified };
}

/** The offers in a search response as clients post it: an array, or an object with (data.)Results. */
export function resultsIn(apiResponse: unknown): unknown[] {
  if (Array.isArray(apiResponse)) return apiResponse;
  if (apiResponse && typeof apiResponse === 'object') {
    const response = apiResponse as { Results?: unknown; data?: { Results?: unknown } };
    if (Array.isArray(response.data?.Results)) return response.data.Results;
    if (Array.isArray(response.Results)) return response.Results;
  }
  return [];
}

/**
 * A saved search as search.saved carries it (and as dip is answered when it asks before the event has
 * reached it): its offers verified against the server's own record of the run.
 */
export async function savedSearchState(
  runs: RecordedRuns,
  search: SavedSearchDocument,
): Promise<SearchSavedEvent> {
  return {
    searchId: search._id,
    userId: search.user_id,
    loanType: search.loan_type,
    ...(search.project_name ? { projectName: search.project_name } : {}),
    resultCount: search.result_count,
    ...(await verifiedOffers(runs, search.loan_type, search.session_id, resultsIn(search.api_response))),
    searchData: search.search_data,
    savedAt: search.created_at.toISOString(),
  };
}
