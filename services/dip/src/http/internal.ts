import { DIP_INTERNAL_PATHS, searchesWithApplicationsBodySchema } from '@lsp/contracts';
import { badRequest, registerInternalRead } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type SearchesWithApplicationsDeps, searchesWithApplications } from '../use-cases/applications';
import { type DipStateDeps, currentDipState } from '../use-cases/reading';

export type InternalReadDeps = DipStateDeps & SearchesWithApplicationsDeps & { internalSecret: string };

/**
 * What other services ask dip directly (docs/decisions/0083-read-your-own-writes-across-services.md):
 * sharing, the DIP's link as it is now; search, which saved searches have an application.
 */
export function registerInternalReads(app: FastifyInstance, deps: InternalReadDeps) {
  registerInternalRead<{ dipId: string }, never>(
    app,
    deps.internalSecret,
    { method: 'GET', path: DIP_INTERNAL_PATHS.dipState },
    async (request) => currentDipState(deps, request.params.dipId),
  );
  registerInternalRead<never, unknown>(
    app,
    deps.internalSecret,
    { method: 'POST', path: DIP_INTERNAL_PATHS.searchesWithApplications },
    async (request) => {
      const body = searchesWithApplicationsBodySchema.safeParse(request.body);
      if (!body.success) throw badRequest('userId and searchIds (at most 1,000) are required');
      return searchesWithApplications(deps, body.data.userId, body.data.searchIds);
    },
  );
}
