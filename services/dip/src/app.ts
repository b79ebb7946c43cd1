import { type Clock, type EventOutbox, type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { DipConfig } from './config';
import { ApplicationRepository } from './data/applications';
import { DipRepository } from './data/dips';
import { AccessProjection, SavedSearchProjection } from './data/projections';
import { registerApplicationRoutes } from './http/applications';
import { registerDipRoutes } from './http/dips';
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
  });
  const publicUrl = deps.config.PUBLIC_URL;
  registerDipRoutes(app, { ...deps, publicUrl });
  registerPdfRoutes(app, deps);
  registerApplicationRoutes(app, deps);
  return app;
}
