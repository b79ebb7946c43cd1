import { type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { NotificationsConfig } from './config';
import { unsubscribeKey } from './alerts/unsubscribe-token';
import { AlertStore } from './data/alerts';
import { registerAlertRoutes } from './http/alerts';
import { registerDevMailRoutes } from './http/dev-mail';
import { type OpsConsole, registerOpsRoutes } from './ops';

export type NotificationsDeps = Pick<
  ServiceRuntime<NotificationsConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
> & {
  /** The operations console (/api/ops); without it those routes answer 404. */
  ops?: OpsConsole;
};

export function buildApp(deps: NotificationsDeps) {
  const app = createServiceApp({
    name: 'notifications',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
    metricsToken: deps.config.METRICS_TOKEN,
  });

  // The catcher's pages exist only while it is switched on, so they can never leak mail in production.
  if (deps.config.MAIL_CATCHER_ENABLED) registerDevMailRoutes(app, deps);
  if (deps.ops) registerOpsRoutes(app, deps.ops);
  registerAlertRoutes(app, {
    alerts: new AlertStore(deps.mongo),
    unsubscribeKey: unsubscribeKey(deps.config.INTERNAL_SECRET),
  });
  return app;
}
