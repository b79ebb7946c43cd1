import type { FastifyInstance } from 'fastify';
import { type MailboxDeps, clearMail, listMail, mailPage, oneMail } from '../use-cases/dev-mailbox';

/** The mail catcher's pages: /dev/mail (HTML) and /dev/mail/messages (JSON, one, clear all). */
export function registerDevMailRoutes(app: FastifyInstance, deps: MailboxDeps) {
  app.get('/dev/mail', async (_request, reply) => {
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return mailPage(deps);
  });
  app.get('/dev/mail/messages', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return listMail(deps);
  });
  app.get<{ Params: { id: string } }>('/dev/mail/messages/:id', async (request) =>
    oneMail(deps, request.params.id),
  );
  app.delete('/dev/mail/messages', async () => clearMail(deps));
}
