import { type ServiceRuntime, createServiceApp, notFound } from '@lsp/service-kit';
import type { NotificationsConfig } from './config';
import { renderMailPage } from './dev-mail-page';
import { caughtMail } from './mail-catcher';

export type NotificationsDeps = Pick<
  ServiceRuntime<NotificationsConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
>;

const MAIL_PAGE_SIZE = 100;

export function buildApp(deps: NotificationsDeps) {
  const app = createServiceApp({
    name: 'notifications',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });

  // The catcher's pages exist only while it is switched on, so they can never leak mail in production.
  if (deps.config.MAIL_CATCHER_ENABLED) {
    const mail = caughtMail(deps.mongo);
    const newest = () => mail.find().sort({ receivedAt: -1 }).limit(MAIL_PAGE_SIZE).toArray();
    const asJson = (m: Awaited<ReturnType<typeof newest>>[number]) => ({
      id: m._id,
      from: m.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      links: m.links,
      receivedAt: m.receivedAt.toISOString(),
    });
    app.get('/dev/mail', async (_request, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      return renderMailPage(await newest());
    });
    app.get('/dev/mail/messages', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { messages: (await newest()).map(asJson) };
    });
    app.get<{ Params: { id: string } }>('/dev/mail/messages/:id', async (request) => {
      const found = await mail.findOne({ _id: request.params.id });
      if (!found) throw notFound('No such email');
      return asJson(found);
    });
    app.delete('/dev/mail/messages', async () => {
      const { deletedCount } = await mail.deleteMany({});
      return { success: true, deleted: deletedCount };
    });
  }
  return app;
}
