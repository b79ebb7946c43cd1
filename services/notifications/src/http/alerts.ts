import { STYLE_NONCE_HEADER, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  type AlertSettingsDeps,
  alertSettings,
  showUnsubscribe,
  unsubscribe,
  updateAlertSettings,
} from '../use-cases/alert-settings';

/** An HTML page that no cache keeps: it answers for one link's token. */
const sendPage = (reply: FastifyReply, html: string) =>
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);

/** The email alert settings (signed in) and the unsubscribe link's pages (no sign-in: the signed token). */
export function registerAlertRoutes(app: FastifyInstance, deps: AlertSettingsDeps) {
  declareRoute(app, 'getAlertSettings', async (request) => alertSettings(deps, request.caller.userId));

  declareRoute(app, 'updateAlertSettings', async (request) =>
    updateAlertSettings(deps, request.caller.userId, request.body.repricingAlerts),
  );

  // The unsubscribe page's form posts no fields, as an empty form-encoded body: taken (and ignored)
  // on these two routes only; every other route of the service stays JSON-only.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, _body, done) => done(null, undefined),
    );

    declareRoute(scope, 'showAlertUnsubscribe', async (request, reply) =>
      sendPage(reply, showUnsubscribe(deps, request.query.token, request.headers[STYLE_NONCE_HEADER])),
    );

    declareRoute(scope, 'unsubscribeFromAlerts', async (request, reply) =>
      sendPage(reply, await unsubscribe(deps, request.query.token, request.headers[STYLE_NONCE_HEADER])),
    );
  });
}
