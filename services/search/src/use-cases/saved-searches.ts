import { randomUUID } from 'node:crypto';
import type { ProjectNameBody, SaveSearchBody } from '@lsp/contracts';
import { badRequest, forbidden, notFound } from '@lsp/service-kit';
import type { SavedSearchDocument } from '../data/models/saved-searches';
import type { SavedSearchRepository } from '../data/saved-searches';
import { type ApplicationStatusDeps, withApplicationStatus } from './application-status';
import {
  type RecordedRunDeps,
  replayRecordedRun,
  runMayBeSavedBy,
  saveRecordedRun,
  savedSearchOfRun,
  searchRunIdIn,
} from './recorded-run';
import { resultsIn } from './saved-search-state';

export interface SavedSearchDeps extends RecordedRunDeps, ApplicationStatusDeps {
  savedSearches: SavedSearchRepository;
}

export const SEARCH_NOT_FOUND = 'Search not found';
export const SEARCH_ACCESS_DENIED = 'Access denied';
/** Mentions the user id: the frontend re-checks the session and retries once on such a message. */
export const SAVE_FOR_OTHER_USER = 'The user id does not match the signed-in user';
/** A save names the run it keeps by the run id the search answered with; a response without one is refused. */
export const SAVE_WITHOUT_RUN =
  'apiResponse must be the answer of a search run here (its data.SearchRunId is missing)';
export const SEARCH_RUN_NOT_FOUND = 'That search run was not found. Please run the search again.';
export const SEARCH_RUN_OF_OTHER_USER = 'That search was run by another user';

/** A saved search as the dashboard and /search-results/{id} read it (snake_case, as the spec's model). */
export function savedSearchView(search: SavedSearchDocument) {
  return {
    id: search._id,
    user_id: search.user_id,
    loan_type: search.loan_type,
    project_name: search.project_name,
    created_at: search.created_at.toISOString(),
    updated_at: search.updated_at.toISOString(),
    application_status: search.application_status,
    result_count: search.result_count,
    search_data: search.search_data,
    form_data: search.search_data,
    api_response: search.api_response,
    repricing: search.repricing ?? null,
  };
}

/** The saved search if it exists (404) and belongs to the caller (403). */
async function ownedSearch(
  deps: Pick<SavedSearchDeps, 'savedSearches'>,
  id: string,
  userId: string,
): Promise<SavedSearchDocument> {
  const search = id.length <= 100 ? await deps.savedSearches.find(id) : null;
  if (!search) throw notFound(SEARCH_NOT_FOUND);
  if (search.user_id !== userId) throw forbidden(SEARCH_ACCESS_DENIED);
  return search;
}

/**
 * Saves a search run for the signed-in user. What is saved is the server's own record of the run:
 * the posted searchData and offers are only a reference to it (by the run id), so nothing a browser
 * edits reaches the search or a DIP.
 */
export async function saveSearch(
  deps: SavedSearchDeps,
  userId: string,
  body: SaveSearchBody,
  requestId: string,
) {
  if (body.userId !== userId) throw forbidden(SAVE_FOR_OTHER_USER);
  const runId = searchRunIdIn(body.apiResponse);
  if (!runId) throw badRequest(SAVE_WITHOUT_RUN);
  const replayed = await replayRecordedRun(deps, body.loanType, runId);
  if (!replayed) throw notFound(SEARCH_RUN_NOT_FOUND);
  if (!runMayBeSavedBy(replayed.run, userId)) throw forbidden(SEARCH_RUN_OF_OTHER_USER);
  // Saving a run again (the browser after verification, once it was attached) keeps one search.
  const search =
    (await deps.savedSearches.findByRun(userId, runId)) ??
    (await saveRecordedRun(deps, savedSearchOfRun(replayed, randomUUID(), userId, new Date()), requestId));
  return {
    success: true as const,
    search: {
      id: search._id,
      userId: search.user_id,
      loanType: search.loan_type,
      createdAt: search.created_at.toISOString(),
    },
  };
}

/** The caller's saved searches; the user the URL names must be the caller. */
export async function listUserSearches(deps: SavedSearchDeps, userId: string, namedUserId: string) {
  if (namedUserId !== userId) throw forbidden(SEARCH_ACCESS_DENIED);
  const searches = await deps.savedSearches.listForUser(userId);
  return (await withApplicationStatus(deps, userId, searches)).map(savedSearchView);
}

/** One of the caller's saved searches with its results. */
export async function getSearchResult(deps: SavedSearchDeps, userId: string, id: string) {
  const [search] = await withApplicationStatus(deps, userId, [await ownedSearch(deps, id, userId)]);
  return { success: true as const, ...savedSearchView(search), results: resultsIn(search.api_response) };
}

export async function renameSearch(
  deps: Pick<SavedSearchDeps, 'savedSearches'>,
  userId: string,
  body: ProjectNameBody,
) {
  const search = await ownedSearch(deps, body.searchId, userId);
  // The loan type names which kind of search the client means; a mismatch is a stale reference.
  if (search.loan_type !== body.loanType) throw notFound(SEARCH_NOT_FOUND);
  const renamed = await deps.savedSearches.rename(search._id, userId, body.projectName, new Date());
  if (!renamed) throw notFound(SEARCH_NOT_FOUND);
  return {
    success: true as const,
    message: 'Project name updated successfully',
    search: { id: renamed._id, loan_type: renamed.loan_type, project_name: renamed.project_name },
  };
}
