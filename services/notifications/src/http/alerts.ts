import { ALERT_MESSAGES } from '@lsp/contracts';
import { STYLE_NONCE_HEADER, badRequest, declareRoute, escapeHtml, styleElement } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { verifyUnsubscribeToken } from '../alerts/unsubscribe-token';
import type { AlertStore } from '../data/alerts';

// One <style> element, no style attributes: through the gateway, the page's CSP allows only the
// element carrying the request's nonce (STYLE_NONCE_HEADER).
const STYLE = `body{margin:0;padding:24px;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#102c54}
main{max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px}
h1{font-size:22px;margin:0 0 16px}p{font-size:16px;line-height:1.5}p.small{font-size:14px}a{color:#1d4ed8}
button{background:#1d4ed8;color:#ffffff;border:0;padding:12px 24px;border-radius:6px;font-size:16px;font-weight:bold;cursor:pointer}`;

function page(title: string, body: string, styleNonce: unknown): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} | LoanSearch UK</title>${styleElement(STYLE, styleNonce)}</head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${body}
<p class="small"><a href="/dashboard">Go to your dashboard</a></p>
</main></body></html>`;
}

/** The email alert settings (signed in) and the unsubscribe link's pages (no sign-in: the signed token). */
export function registerAlertRoutes(
  app: FastifyInstance,
  deps: { alerts: AlertStore; unsubscribeKey: Buffer },
) {
  const { alerts, unsubscribeKey } = deps;
  const userOf = (token: string) => {
    const userId = verifyUnsubscribeToken(token, unsubscribeKey);
    if (!userId) throw badRequest(ALERT_MESSAGES.badLink);
    return userId;
  };

  declareRoute(app, 'getAlertSettings', async (request) => ({
    repricingAlerts: await alerts.repricingAlertsOn(request.caller.userId),
  }));

  declareRoute(app, 'updateAlertSettings', async (request) => {
    await alerts.setRepricingAlerts(request.caller.userId, request.body.repricingAlerts);
    return { repricingAlerts: request.body.repricingAlerts };
  });

  // The unsubscribe page's form posts no fields, as an empty form-encoded body: taken (and ignored)
  // on these two routes only; every other route of the service stays JSON-only.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, _body, done) => done(null, undefined),
    );
    // A visit (a mail scanner's too) only shows the button: the change needs the POST.
    declareRoute(scope, 'showAlertUnsubscribe', async (request, reply) => {
      const { token } = request.query;
      userOf(token);
      const action = `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          page(
            'Stop emails about better offers?',
            `<p>You will no longer get an email when a change of lender terms improves the best offer for one of your saved searches. You can turn them on again from your dashboard.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Stop these emails</button></form>`,
            request.headers[STYLE_NONCE_HEADER],
          ),
        );
    });

    declareRoute(scope, 'unsubscribeFromAlerts', async (request, reply) => {
      await alerts.setRepricingAlerts(userOf(request.query.token), false);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          page(
            'You will not get these emails any more',
            '<p>Emails about better offers for your saved searches are turned off. You can turn them on again from your dashboard.</p>',
            request.headers[STYLE_NONCE_HEADER],
          ),
        );
    });
  });
}
