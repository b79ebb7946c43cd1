import { LOAN_TYPES } from '@lsp/contracts';
import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type SearchRunnerDeps, runSearch } from '../use-cases/search-runner';

/** POST /api/development, /api/bridging and /api/commercial: one search run each. */
export function registerSearchRoutes(app: FastifyInstance, deps: SearchRunnerDeps) {
  for (const loanType of LOAN_TYPES) {
    declareRoute(app, `${loanType}Search`, async (request) =>
      runSearch(deps, loanType, { body: request.body, caller: request.caller, requestId: request.id }),
    );
  }
}
