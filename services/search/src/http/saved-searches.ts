import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type SavedSearchDeps,
  getSearchResult,
  listUserSearches,
  renameSearch,
  saveSearch,
} from '../use-cases/saved-searches';

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

/**
 * Saved searches: every route needs a signed-in caller (401), and the caller is the only user whose
 * searches it reads or changes (403), whatever id the URL or body names.
 */
export function registerSavedSearchRoutes(app: FastifyInstance, deps: SavedSearchDeps) {
  declareRoute(
    app,
    'saveSearch',
    async (request, reply) => {
      const saved = await saveSearch(deps, request.caller.userId, request.body, request.id);
      reply.status(201);
      return saved;
    },
    { preSerialization: withMessageOnError },
  );

  declareRoute(app, 'listUserSearches', async (request) =>
    listUserSearches(deps, request.caller.userId, request.params.userId),
  );

  declareRoute(app, 'getSearchResult', async (request) =>
    getSearchResult(deps, request.caller.userId, request.params.id),
  );

  declareRoute(app, 'renameSearch', async (request) =>
    renameSearch(deps, request.caller.userId, request.body),
  );
}
