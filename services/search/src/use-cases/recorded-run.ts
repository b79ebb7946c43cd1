import {
  type LoanOffer,
  type LoanType,
  type RunOfferAnswer,
  type RunOfferQuery,
  type SearchRunResponse,
  LOAN_TYPES,
  searchPayloadSchemas,
  SEARCH_EVENTS,
} from '@lsp/contracts';
import type { ClientSession } from 'mongoose';
import { searchPanel } from '../engine';
import type { SavedSearchDocument } from '../data/models/saved-searches';
import type { SearchRunDocument } from '../data/models/search-runs';
import type { PanelStore } from '../data/panel-store';
import type { SavedSearchRepository } from '../data/saved-searches';
import type { SearchRunRepository } from '../data/search-runs';
import type { Panel } from '../panel/schema';
import { RECORDED_FIGURES, resultsIn, savedSearchState } from './saved-search-state';
import { searchAnswer } from './search-runner';

/** What the server needs to answer for a run again: the runs it recorded and every panel version. */
export interface RecordedRunDeps {
  runs: Pick<SearchRunRepository, 'find'>;
  panels: Pick<PanelStore, 'current' | 'readVersion'>;
}

/** A recorded run answered again: its form as it was run, and its full answer. */
export interface ReplayedRun {
  loanType: LoanType;
  run: SearchRunDocument;
  /** The search form exactly as the run was sized (the browser's copy is never used). */
  searchData: Record<string, unknown>;
  /** The answer the run gave: the full offers, the declines, the summary and the run id. */
  response: SearchRunResponse;
  offers: LoanOffer[];
}

/** Fields of a run record that are the record's own, not the search form's. */
const RUN_RECORD_FIELDS = new Set([
  '_id',
  'userId',
  'requestRef',
  'panelVersion',
  'applicationStatus',
  'apiResponse',
  'resultCount',
  'declinedCount',
  'bestRate',
  'durationMs',
  'createdAt',
  // Derived for the record (purchase price plus purchase costs); the form has no such field.
  'landCosts',
]);

/** The search form a run was sized from, as its record keeps it. */
export function searchDataOfRun(run: SearchRunDocument): Record<string, unknown> {
  return Object.fromEntries(Object.entries(run).filter(([field]) => !RUN_RECORD_FIELDS.has(field)));
}

/** A run id as a search answer carries it (`data.SearchRunId`); null when the answer names none. */
export function searchRunIdIn(apiResponse: unknown): string | null {
  const id = (apiResponse as { data?: { SearchRunId?: unknown } } | null)?.data?.SearchRunId;
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : null;
}

/**
 * The run's full answer, sized again from its recorded form on the panel version it was priced under
 * (the engine is deterministic and every version is kept). Only offers whose figures equal those the
 * run recorded are kept, so the answer can never hold a term the run did not offer. Null when the run
 * is unknown, or can no longer be sized honestly (its form fails today's rules, its panel is gone).
 */
export async function replayRecordedRun(
  deps: RecordedRunDeps,
  loanType: LoanType,
  runId: string,
): Promise<ReplayedRun | null> {
  const run = runId.length <= 100 ? await deps.runs.find(loanType, runId) : null;
  if (!run) return null;
  const searchData = searchDataOfRun(run);
  const payload = searchPayloadSchemas[loanType].safeParse(searchData);
  if (!payload.success) return null;
  const current = deps.panels.current();
  const panel: Panel | null =
    current.version === run.panelVersion ? current : await deps.panels.readVersion(run.panelVersion);
  if (!panel) return null;
  const sized = searchPanel(loanType, payload.data as never, panel);
  const recorded = resultsIn(run.apiResponse) as Array<Record<string, unknown>>;
  const offers = sized.offers.filter((offer) => {
    const match = recorded.find((r) => r.LenderId === offer.LenderId && r.ProductId === offer.ProductId);
    return match !== undefined && RECORDED_FIGURES.every((field) => match[field] === offer[field]);
  });
  const response = searchAnswer(loanType, payload.data as never, { ...sized, offers }, run._id);
  return { loanType, run, searchData, response, offers };
}

/** The run with this id in whichever loan type's collection holds it. */
export async function replayRunOfAnyType(deps: RecordedRunDeps, runId: string): Promise<ReplayedRun | null> {
  for (const loanType of LOAN_TYPES) {
    const replayed = await replayRecordedRun(deps, loanType, runId);
    if (replayed) return replayed;
  }
  return null;
}

/** Whether a user may keep this run: an anonymous run (the visitor who became the user) or their own. */
export const runMayBeSavedBy = (run: SearchRunDocument, userId: string) =>
  run.userId === null || run.userId === undefined || run.userId === userId;

/**
 * One offer of a run, for someone to share: sized again from the run's record like a save, so it is
 * only ever what the panel offered. Refused as a save is: an unknown run, or one another user made.
 */
export async function offerOfRun(deps: RecordedRunDeps, query: RunOfferQuery): Promise<RunOfferAnswer> {
  const replayed = await replayRecordedRun(deps, query.loanType, query.searchRunId);
  if (!replayed) return { outcome: 'run-not-found' };
  if (!runMayBeSavedBy(replayed.run, query.userId)) return { outcome: 'run-of-other-user' };
  const offer = replayed.offers.find(
    (candidate) => candidate.LenderId === query.lenderId && candidate.ProductId === query.productId,
  );
  return offer ? { outcome: 'offered', loanType: query.loanType, offer } : { outcome: 'offer-not-in-run' };
}

/** A saved search built from the server's record of the run alone. */
export function savedSearchOfRun(
  replayed: ReplayedRun,
  id: string,
  userId: string,
  now: Date,
): SavedSearchDocument {
  const projectName = replayed.searchData.projectName;
  return {
    _id: id,
    user_id: userId,
    session_id: replayed.run._id,
    loan_type: replayed.loanType,
    project_name:
      typeof projectName === 'string' && projectName.trim() ? projectName.trim().slice(0, 200) : null,
    search_data: replayed.searchData,
    api_response: replayed.response,
    result_count: replayed.offers.length,
    application_status: 'not_submitted',
    created_at: now,
    updated_at: now,
  };
}

/** Stores a saved search built from its run, with its search.saved event (inside `session` when given). */
export async function saveRecordedRun(
  deps: Pick<RecordedRunDeps, 'runs'> & { savedSearches: Pick<SavedSearchRepository, 'insert'> },
  search: SavedSearchDocument,
  correlationId: string | undefined,
  session?: ClientSession,
): Promise<SavedSearchDocument> {
  const event = SEARCH_EVENTS.saved.envelope(await savedSearchState(deps.runs, search), { correlationId });
  await deps.savedSearches.insert(search, [event], session);
  return search;
}
