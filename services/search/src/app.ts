import { type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { SearchConfig } from './config';

export type SearchDeps = Pick<ServiceRuntime<SearchConfig>, 'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'>;

export function buildApp(deps: SearchDeps) {
  const app = createServiceApp({
    name: 'search',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });
  return app;
}
