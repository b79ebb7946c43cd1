import { type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { DipConfig } from './config';

export type DipDeps = Pick<
  ServiceRuntime<DipConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
>;

export function buildApp(deps: DipDeps) {
  const app = createServiceApp({
    name: 'dip',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });
  return app;
}
