import {
  SEARCH_INTERNAL_PATHS,
  SHARING_INTERNAL_PATHS,
  accessAnswerSchema,
  savedSearchStateSchema,
} from '@lsp/contracts';
import {
  type Clock,
  type EventOutbox,
  InternalReader,
  type ServiceRuntime,
  createServiceApp,
} from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { DipConfig } from './config';
import { ApplicationRepository } from './data/applications';
import { DipRepository } from './data/dips';
import {
  AccessProjection,
  SavedSearchProjection,
  type SavedSearchSource,
  type SharedAccessSource,
} from './data/projections';
import { registerApplicationRoutes } from './http/applications';
import { registerDipRoutes } from './http/dips';
import { registerInternalReads } from './http/internal';
import { registerPdfRoutes } from './http/pdf';
import type { DipPdfs } from './pdf';

export type DipDeps = Pick<ServiceRuntime<DipConfig>, 'config' | 'logger' | 'metrics' | 'healthChecks'> & {
  clock: Clock;
  pdfs: Pick<DipPdfs, 'get'>;
} & ReturnType<typeof createRepositories>;

/** Repositories over the service's own database, all writing their events through one outbox. */
export function createRepositories(mongo: Connection, outbox: EventOutbox) {
  return {
    dips: new DipRepository(mongo, outbox),
    applications: new ApplicationRepository(mongo, outbox),
    savedSearches: new SavedSearchProjection(mongo),
    access: new AccessProjection(mongo),
  };
}

/** Collections and indexes for the queries the routes make, created before the first request. */
export async function ensureIndexes(repositories: ReturnType<typeof createRepositories>) {
  await repositories.dips.ensureIndexes();
  await repositories.applications.ensureIndexes();
  await repositories.access.ensureIndexes();
}

export function buildApp(deps: DipDeps) {
  const app = createServiceApp({
    name: 'dip',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
    metricsToken: deps.config.METRICS_TOKEN,
  });
  const publicUrl = deps.config.PUBLIC_URL;
  const askSharing = sharedAccessReader(deps.config, deps.logger);
  const askSearch = savedSearchReader(deps.config);
  registerDipRoutes(app, { ...deps, publicUrl, askSearch, askSharing });
  registerPdfRoutes(app, { ...deps, askSharing });
  registerApplicationRoutes(app, { ...deps, askSearch });
  registerInternalReads(app, { ...deps, publicUrl, internalSecret: deps.config.INTERNAL_SECRET });
  return app;
}

/**
 * Asks the sharing service (SHARING_URL) through which shares someone may open a DIP. If sharing
 * cannot be asked, there are none beyond dip's own grants: refusing is the safe answer.
 */
export function sharedAccessReader(
  config: Pick<DipConfig, 'SHARING_URL' | 'INTERNAL_SECRET'>,
  logger: Pick<DipDeps['logger'], 'warn'>,
): SharedAccessSource {
  const sharing = new InternalReader({
    baseUrl: config.SHARING_URL,
    internalSecret: config.INTERNAL_SECRET,
    owner: 'sharing',
  });
  return async (dipId, shareSlug, caller, linkRevokedAt) => {
    try {
      const answer = await sharing.post(
        SHARING_INTERNAL_PATHS.access,
        {
          dipId,
          shareSlug,
          email: caller.email,
          userId: caller.userId,
          linkRevokedAt: linkRevokedAt?.toISOString() ?? null,
        },
        accessAnswerSchema,
      );
      return answer?.grants ?? [];
    } catch (err) {
      logger.warn({ err, dipId }, 'sharing could not be asked about access; refusing on dip’s own grants');
      return [];
    }
  };
}

/** Asks the search service (SEARCH_URL) for a saved search. */
export function savedSearchReader(
  config: Pick<DipConfig, 'SEARCH_URL' | 'INTERNAL_SECRET'>,
): SavedSearchSource {
  const search = new InternalReader({
    baseUrl: config.SEARCH_URL,
    internalSecret: config.INTERNAL_SECRET,
    owner: 'search',
  });
  return (searchId) =>
    search.get(
      SEARCH_INTERNAL_PATHS.savedSearch.replace(':searchId', encodeURIComponent(searchId)),
      savedSearchStateSchema,
    );
}
