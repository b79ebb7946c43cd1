import { type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { SharingConfig } from './config';

export type SharingDeps = Pick<
  ServiceRuntime<SharingConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
>;

export function buildApp(deps: SharingDeps) {
  const app = createServiceApp({
    name: 'sharing',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });
  return app;
}
