import { escapeHtml } from '@lsp/service-kit';
import type { RenderedEmail } from './templates';

/** The email to an endpoint's owner when a delivery failed on every try and the endpoint was disabled. */
export interface WebhookDisabledInput {
  template: 'webhook-disabled';
  name: string;
  url: string;
  /** The event whose delivery failed last. */
  eventType: string;
  /** What the last try got: `HTTP 500`, or why no answer came. */
  lastResult: string;
  /** Where endpoints are managed (the account page). */
  accountUrl: string;
}

export function webhookDisabledEmail(input: WebhookDisabledInput): RenderedEmail {
  const subject = 'Your webhook endpoint has been disabled';
  const intro = `Hello ${input.name.trim() || 'there'}, we could not deliver a ${input.eventType} event to your webhook endpoint ${input.url} after trying for about a day, so we have stopped sending events to it.`;
  const last = `The last try got: ${input.lastResult}.`;
  const next =
    'When the endpoint works again, delete it and add it again on your account page (it gets a new signing secret), then send a test delivery.';
  const text = [intro, '', last, '', next, '', `Your account: ${input.accountUrl}`].join('\n');
  const html = `<!doctype html>
<html lang="en-GB"><body style="margin:0;padding:24px;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#102c54">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(subject)}</h1>
<p style="font-size:16px;line-height:1.5">${escapeHtml(intro)}</p>
<p style="font-size:16px;line-height:1.5">${escapeHtml(last)}</p>
<p style="font-size:16px;line-height:1.5">${escapeHtml(next)}</p>
<p style="margin:28px 0"><a href="${escapeHtml(input.accountUrl)}" style="background:#1d4ed8;color:#ffffff;padding:12px 24px;border-radius:6px;text-decoration:none;font-weight:bold">Go to your account</a></p>
</td></tr></table></body></html>`;
  return { subject, html, text };
}
