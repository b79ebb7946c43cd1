import { randomUUID } from 'node:crypto';
import { type Logger, badRequest, forbidden, notFound, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SavedSearchDocument } from '../data/models/saved-searches';
import type { SavedSearchRepository } from '../data/saved-searches';
import { withApplicationStatus } from '../searching/application-status';
import {
  type RecordedRunDeps,
  replayRecordedRun,
  runMayBeSavedBy,
  saveRecordedRun,
  savedSearchOfRun,
  searchRunIdIn,
} from '../searching/recorded-run';
import { resultsIn } from '../searching/saved-search-state';

export interface SavedSearchRouteDeps extends RecordedRunDeps {
  savedSearches: SavedSearchRepository;
  /** Asks the dip service which of the user's saved searches have an application. */
  searchesWithApplications: (userId: string, searchIds: string[]) => Promise<string[]>;
  logger: Pick<Logger, 'warn'>;
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

/**
 * POST /api/search answers errors with `message` too: that is the field its caller reads. Added as the
 * error body is serialised, so it also covers what fastify refuses before the handler (a body that is
 * not JSON).
 */
async function withMessageOnError(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null) return payload;
  const body = payload as { error?: unknown; message?: unknown };
  return typeof body.error === 'string' && body.message === undefined
    ? { ...body, message: body.error }
    : payload;
}

/** The saved search if it exists (404) and belongs to the caller (403). */
async function ownedSearch(
  deps: SavedSearchRouteDeps,
  id: string,
  userId: string,
): Promise<SavedSearchDocument> {
  const search = id.length <= 100 ? await deps.savedSearches.find(id) : null;
  if (!search) throw notFound(SEARCH_NOT_FOUND);
  if (search.user_id !== userId) throw forbidden(SEARCH_ACCESS_DENIED);
  return search;
}

/**
 * Saved searches: every route needs a signed-in caller (401), and the caller is the only user whose
 * searches it reads or changes (403), whatever id the URL or body names.
 */
export function registerSavedSearchRoutes(app: FastifyInstance, deps: SavedSearchRouteDeps) {
  declareRoute(
    app,
    'saveSearch',
    async (request, reply) => {
      const { caller, body } = request;
      if (body.userId !== caller.userId) throw forbidden(SAVE_FOR_OTHER_USER);
      // What is saved is the server's own record of the run: the posted searchData and offers are only
      // a reference to it (by the run id), so nothing a browser edits reaches the search or a DIP.
      const runId = searchRunIdIn(body.apiResponse);
      if (!runId) throw badRequest(SAVE_WITHOUT_RUN);
      const replayed = await replayRecordedRun(deps, body.loanType, runId);
      if (!replayed) throw notFound(SEARCH_RUN_NOT_FOUND);
      if (!runMayBeSavedBy(replayed.run, caller.userId)) throw forbidden(SEARCH_RUN_OF_OTHER_USER);
      // Saving a run again (the browser after verification, once it was attached) keeps one search.
      const search =
        (await deps.savedSearches.findByRun(caller.userId, runId)) ??
        (await saveRecordedRun(
          deps,
          savedSearchOfRun(replayed, randomUUID(), caller.userId, new Date()),
          request.id,
        ));
      reply.status(201);
      return {
        success: true,
        search: {
          id: search._id,
          userId: search.user_id,
          loanType: search.loan_type,
          createdAt: search.created_at.toISOString(),
        },
      };
    },
    { preSerialization: withMessageOnError },
  );

  declareRoute(app, 'listUserSearches', async (request) => {
    const { caller } = request;
    if (request.params.userId !== caller.userId) throw forbidden(SEARCH_ACCESS_DENIED);
    const searches = await deps.savedSearches.listForUser(caller.userId);
    return (await withApplicationStatus(deps, caller.userId, searches)).map(savedSearchView);
  });

  declareRoute(app, 'getSearchResult', async (request) => {
    const { caller } = request;
    const [search] = await withApplicationStatus(deps, caller.userId, [
      await ownedSearch(deps, request.params.id, caller.userId),
    ]);
    return { success: true, ...savedSearchView(search), results: resultsIn(search.api_response) };
  });

  declareRoute(app, 'renameSearch', async (request) => {
    const { caller, body } = request;
    const search = await ownedSearch(deps, body.searchId, caller.userId);
    // The loan type names which kind of search the client means; a mismatch is a stale reference.
    if (search.loan_type !== body.loanType) throw notFound(SEARCH_NOT_FOUND);
    const renamed = await deps.savedSearches.rename(search._id, caller.userId, body.projectName, new Date());
    if (!renamed) throw notFound(SEARCH_NOT_FOUND);
    return {
      success: true,
      message: 'Project name updated successfully',
      search: { id: renamed._id, loan_type: renamed.loan_type, project_name: renamed.project_name },
    };
  });
}
