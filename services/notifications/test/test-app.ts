// What notifications' test rigs build alike: an SMTP server, the database and a config sending to it;
// the app on that config and database; and the email worker sending through the config's SMTP.
import { ServiceMetrics } from '@lsp/service-kit';
import { type HarnessBackends, silentLogger, startTestSmtp } from '@lsp/testing';
import type { Connection } from 'mongoose';
import { type NotificationsDeps, buildApp } from '../src/app';
import { type NotificationsConfig, notificationsConfigSchema } from '../src/config';
import { createMailTransport, startEmailWorker } from '../src/email/sender';

/**
 * An SMTP server that keeps what it gets (stopped when the harness closes), notifications' database,
 * and the config on the harness's backends that sends there, with `env` added.
 */
export async function mailBackends(backends: HarnessBackends, env: Record<string, string> = {}) {
  const smtp = await startTestSmtp();
  backends.onClose(() => smtp.close());
  const db = await backends.mongo.database('notifications');
  const config = notificationsConfigSchema.parse({
    ...backends.env,
    SMTP_URL: smtp.url,
    DB_NAME: db.name,
    ...env,
  });
  return { smtp, db, config };
}

/** The notifications app on a test's config and database: no health checks, a silent log. */
export function buildTestApp(
  config: NotificationsConfig,
  mongo: Connection,
  extra: Pick<NotificationsDeps, 'ops' | 'webhookQueue'> = {},
) {
  return buildApp({
    config,
    logger: silentLogger(),
    metrics: new ServiceMetrics('notifications'),
    healthChecks: [],
    mongo,
    ...extra,
  });
}

/**
 * The email worker on a transport of its own to the config's SMTP server. `onClose` registers their
 * teardown (a harness stops the last registered first): the worker stops, then the transport closes.
 */
export function startTestEmailWorker(
  config: NotificationsConfig,
  mongo: Connection,
  onClose: (close: () => Promise<unknown>) => void,
) {
  const transport = createMailTransport(config);
  onClose(async () => transport.close());
  const worker = startEmailWorker({ config, logger: silentLogger(), mongo, transport });
  onClose(() => worker.close());
  return worker;
}
