import { notFound } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Connection } from 'mongoose';
import { caughtMail } from '../data/caught-mail';
import { renderMailPage } from '../dev-mail/page';

const MAIL_PAGE_SIZE = 100;

/** The mail catcher's pages: /dev/mail (HTML) and /dev/mail/messages (JSON, one, clear all). */
export function registerDevMailRoutes(app: FastifyInstance, deps: { mongo: Connection }) {
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
