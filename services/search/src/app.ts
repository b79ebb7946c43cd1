import {
  DIP_INTERNAL_PATHS,
  SEARCH_INTERNAL_PATHS,
  runOfferQuerySchema,
  searchesWithApplicationsResponseSchema,
} from '@lsp/contracts';
import {
  type EventOutbox,
  InternalReader,
  type ServiceRuntime,
  createServiceApp,
  badRequest,
  registerInternalRead,
} from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { SearchConfig } from './config';
import { PanelImpactRepository } from './data/panel-impacts';
import { PanelStore } from './data/panel-store';
import { LeadRepository } from './data/leads';
import { SavedSearchRepository } from './data/saved-searches';
import { SearchRunRepository } from './data/search-runs';
import { registerLeadRoutes } from './http/leads';
import { registerPanelOpsRoutes } from './http/panel-ops';
import { registerSavedSearchRoutes } from './http/saved-searches';
import { registerSearchRoutes } from './http/searches';
import { PanelImpactRunner } from './use-cases/panel-impact';
import { offerOfRun } from './use-cases/recorded-run';
import { savedSearchState } from './use-cases/saved-search-state';

export type SearchDeps = Pick<
  ServiceRuntime<SearchConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks'
> & {
  panels: PanelStore;
  runs: SearchRunRepository;
  leads: LeadRepository;
  savedSearches: SavedSearchRepository;
  panelImpacts: PanelImpactRepository;
};

/** Repositories over the service's own database, all writing their events through one outbox. */
export function createRepositories(mongo: Connection, outbox: EventOutbox) {
  return {
    runs: new SearchRunRepository(mongo, outbox),
    leads: new LeadRepository(mongo, outbox),
    savedSearches: new SavedSearchRepository(mongo, outbox),
    panelImpacts: new PanelImpactRepository(mongo),
  };
}

/** Collections and indexes for the queries the routes make, created before the first request. */
export async function ensureIndexes(deps: Pick<SearchDeps, 'runs' | 'savedSearches'>) {
  await Promise.all([deps.runs.syncIndexes(), deps.savedSearches.syncIndexes()]);
}

export function buildApp(deps: SearchDeps) {
  const app = createServiceApp({
    name: 'search',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: [
      ...deps.healthChecks,
      {
        name: 'lender-panel',
        check: async () => deps.panels.current().version,
      },
    ],
    internalSecret: deps.config.INTERNAL_SECRET,
    metricsToken: deps.config.METRICS_TOKEN,
  });
  registerSearchRoutes(app, { panels: deps.panels, runs: deps.runs });
  registerLeadRoutes(app, { panels: deps.panels, leads: deps.leads });
  const impacts = new PanelImpactRunner({
    panels: deps.panels,
    savedSearches: deps.savedSearches,
    impacts: deps.panelImpacts,
    logger: deps.logger,
  });
  app.addHook('onClose', () => impacts.closeAll());
  registerPanelOpsRoutes(app, { panels: deps.panels, impacts });
  const dip = new InternalReader({
    baseUrl: deps.config.DIP_URL,
    internalSecret: deps.config.INTERNAL_SECRET,
    owner: 'dip',
  });
  registerSavedSearchRoutes(app, {
    savedSearches: deps.savedSearches,
    runs: deps.runs,
    panels: deps.panels,
    logger: deps.logger,
    searchesWithApplications: async (userId, searchIds) =>
      (
        await dip.post(
          DIP_INTERNAL_PATHS.searchesWithApplications,
          { userId, searchIds },
          searchesWithApplicationsResponseSchema,
        )
      )?.searchIds ?? [],
  });
  // dip asks for a search saved so recently that search.saved has not reached it yet.
  registerInternalRead<{ searchId: string }, never>(
    app,
    deps.config.INTERNAL_SECRET,
    { method: 'GET', path: SEARCH_INTERNAL_PATHS.savedSearch },
    async (request) => {
      const search = await deps.savedSearches.find(request.params.searchId);
      return search ? savedSearchState(deps.runs, search) : null;
    },
  );
  // sharing asks for the offer a user shares as a deal: only ever the run's own record of it.
  registerInternalRead<never, unknown>(
    app,
    deps.config.INTERNAL_SECRET,
    { method: 'POST', path: SEARCH_INTERNAL_PATHS.runOffer },
    async (request) => {
      const query = runOfferQuerySchema.safeParse(request.body);
      if (!query.success)
        throw badRequest('loanType, searchRunId, lenderId, productId and userId are required');
      return offerOfRun(deps, query.data);
    },
  );
  return app;
}
