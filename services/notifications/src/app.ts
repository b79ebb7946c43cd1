import { type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { NotificationsConfig } from './config';

export type NotificationsDeps = Pick<ServiceRuntime<NotificationsConfig>, 'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'>;

export function buildApp(deps: NotificationsDeps) {
  const app = createServiceApp({
    name: 'notifications',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });
  return app;
}
