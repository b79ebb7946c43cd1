import { type ServiceRuntime, createQueue, createServiceApp } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import type { NotificationsConfig } from './config';
import { unsubscribeKey } from './alerts/unsubscribe-token';
import { AlertStore } from './data/alerts';
import { registerAlertRoutes } from './http/alerts';
import { registerDevMailRoutes } from './http/dev-mail';
import { registerWebhookRoutes } from './http/webhooks';
import { type OpsConsole, registerOpsRoutes } from './ops';
import { WEBHOOK_QUEUE, type WebhookJob } from './webhooks/delivery';
import { WebhookStore } from './webhooks/store';

export type NotificationsDeps = Pick<
  ServiceRuntime<NotificationsConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
> & {
  /** The operations console (/api/ops); without it those routes answer 404. */
  ops?: OpsConsole;
  /** The queue the webhook routes add test deliveries to; without it the app opens (and closes) its own. */
  webhookQueue?: Queue<WebhookJob>;
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
  let webhookQueue = deps.webhookQueue;
  if (!webhookQueue) {
    const own = createQueue<WebhookJob>(WEBHOOK_QUEUE, deps.config.REDIS_URL, deps.config.QUEUE_PREFIX);
    app.addHook('onClose', () => own.close());
    webhookQueue = own;
  }
  registerWebhookRoutes(app, {
    store: new WebhookStore(deps.mongo),
    queue: webhookQueue,
    allowPrivateTargets: deps.config.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
  });
  return app;
}
