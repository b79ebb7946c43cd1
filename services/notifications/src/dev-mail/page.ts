import type { CaughtMail } from '../data/caught-mail';
import { escapeHtml } from '@lsp/service-kit';

/** /dev/mail: newest first, links clickable, each message's HTML in a sandboxed frame. */
export function renderMailPage(messages: CaughtMail[]): string {
  const items = messages
    .map((mail) => {
      const links = mail.links
        .map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`)
        .join('');
      const html = mail.html
        ? `<details><summary>Show the HTML version</summary><iframe sandbox title="${escapeHtml(mail.subject)}" srcdoc="${escapeHtml(mail.html)}"></iframe></details>`
        : '';
      return `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<p class="meta">To <strong>${escapeHtml(mail.to.join(', '))}</strong> from ${escapeHtml(mail.from)} · <time datetime="${mail.receivedAt.toISOString()}">${escapeHtml(mail.receivedAt.toLocaleString('en-GB', { timeZone: 'UTC' }))} UTC</time></p>
${links ? `<ul class="links">${links}</ul>` : ''}
<pre>${escapeHtml(mail.text)}</pre>
${html}
</article>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Caught emails</title>
<style>
body{font-family:system-ui,Arial,sans-serif;margin:0 auto;max-width:860px;padding:24px;color:#102c54}
article{border:1px solid #d5dbe5;border-radius:8px;padding:16px 20px;margin:16px 0}
h2{font-size:18px;margin:0 0 4px}.meta{color:#5b6b82;margin:0 0 8px;font-size:14px}
.links a{font-size:15px;word-break:break-all}pre{white-space:pre-wrap;background:#f4f6fa;padding:12px;border-radius:6px}
iframe{width:100%;height:420px;border:1px solid #d5dbe5;border-radius:6px}
</style></head><body>
<h1>Caught emails</h1>
<p>Emails the platform sent on this machine (no SMTP_URL is set, so nothing left it). Newest first; JSON at <a href="/dev/mail/messages">/dev/mail/messages</a>.</p>
${items || '<p>No emails yet. Register an account and the verification email appears here.</p>'}
</body></html>`;
}
