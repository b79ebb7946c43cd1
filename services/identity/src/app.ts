import { type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { IdentityConfig } from './config';

export type IdentityDeps = Pick<ServiceRuntime<IdentityConfig>, 'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'>;

export function buildApp(deps: IdentityDeps) {
  const app = createServiceApp({
    name: 'identity',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });
  return app;
}
