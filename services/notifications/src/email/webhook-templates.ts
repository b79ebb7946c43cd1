import { escapeHtml } from '@lsp/service-kit';
import { P, button, frame } from './layout';
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
  const html = frame(
    subject,
    `<p style="${P}">${escapeHtml(intro)}</p>
<p style="${P}">${escapeHtml(last)}</p>
<p style="${P}">${escapeHtml(next)}</p>
${button(input.accountUrl, 'Go to your account')}`,
  );
  return { subject, html, text };
}
