import { escapeHtml, styleElement } from '@lsp/service-kit';

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

/** The unsubscribe link's page: only a button, whose POST makes the change. */
export function unsubscribeQuestionPage(token: string, styleNonce: unknown): string {
  const action = `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
  return page(
    'Stop emails about better offers?',
    `<p>You will no longer get an email when a change of lender terms improves the best offer for one of your saved searches. You can turn them on again from your dashboard.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Stop these emails</button></form>`,
    styleNonce,
  );
}

/** The page once the button was pressed. */
export function unsubscribedPage(styleNonce: unknown): string {
  return page(
    'You will not get these emails any more',
    '<p>Emails about better offers for your saved searches are turned off. You can turn them on again from your dashboard.</p>',
    styleNonce,
  );
}
