import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookSummary } from '@lsp/contracts';
import { ToastProvider, createQueryClient } from '@lsp/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  WEBHOOKS_QUERY_KEY,
  WebhookRow,
  WebhooksSection,
  webhookDeliveriesKey,
} from '../src/account/webhooks-section';

// The design system's stylesheet is the bundler's business, not the test's.
jest.mock('../../../packages/ui/src/styles.css', () => ({}));

/** Renders with the server's answers already in the cache. */
function render(element: ReactElement, answers: Array<[readonly unknown[], unknown]>) {
  const client = createQueryClient();
  for (const [key, data] of answers) client.setQueryData(key, data);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ToastProvider>{element}</ToastProvider>
    </QueryClientProvider>,
  );
}

const webhook = (over: Partial<WebhookSummary> = {}): WebhookSummary => ({
  id: 'w1',
  url: 'https://crm.example.com/hooks',
  events: ['dip.created', 'share.viewed'],
  status: 'enabled',
  createdAt: '2026-07-01T09:30:00.000Z',
  disabledAt: null,
  ...over,
});

const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  eventId: 'msg_1',
  type: 'webhook.test',
  attempt: 1,
  statusCode: 204,
  error: null,
  delivered: true,
  at: '2026-07-01T09:31:00.000Z',
  durationMs: 12,
  ...over,
});

const noop = () => undefined;
const rowProps = {
  testing: false,
  anyTesting: false,
  open: false,
  onTest: noop,
  onToggle: noop,
  onRemove: noop,
};

describe('the account page’s webhooks', () => {
  it('lists each endpoint with its events, status and actions, and offers the add form', () => {
    const html = render(<WebhooksSection />, [
      [WEBHOOKS_QUERY_KEY, { webhooks: [webhook(), webhook({ id: 'w2', url: 'https://b.example/h' })] }],
    ]);
    expect(html).toContain('https://crm.example.com/hooks');
    expect(html).toContain('dip.created, share.viewed');
    expect(html).toContain('1 July 2026 at 10:30');
    expect(html).toContain('aria-label="Send test to https://crm.example.com/hooks"');
    expect(html).toContain('aria-label="Remove https://b.example/h"');
    const boxes = html.match(/<input[^>]*type="checkbox"[^>]*>/g) ?? [];
    expect(boxes.map((box) => /value="([^"]+)"/.exec(box)?.[1])).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(html).not.toContain('will not be shown again');
  });

  it('says so when there are none yet', () => {
    expect(render(<WebhooksSection />, [[WEBHOOKS_QUERY_KEY, { webhooks: [] }]])).toContain(
      'No webhooks yet.',
    );
  });

  it('a disabled endpoint says when and why, and cannot be sent a test', () => {
    const html = render(
      <WebhookRow
        {...rowProps}
        webhook={webhook({ status: 'disabled', disabledAt: '2026-07-02T09:30:00Z' })}
      />,
      [],
    );
    expect(html).toContain('Disabled</span>');
    expect(html).toContain('every try of a delivery failed');
    expect(html).toMatch(/<button aria-label="Send test to [^"]*"[^>]*disabled="">/);
  });

  it('open, lists each try: event, attempt, outcome and time', () => {
    const html = render(<WebhookRow {...rowProps} open webhook={webhook()} />, [
      [
        webhookDeliveriesKey('w1'),
        {
          deliveries: [
            delivery({ attempt: 2 }),
            delivery({ delivered: false, statusCode: 500, at: '2026-07-01T09:30:30.000Z' }),
          ],
        },
      ],
    ]);
    expect(html).toContain('aria-expanded="true"');
    expect(html).toContain('Attempt 2');
    expect(html).toContain('Delivered (204)');
    expect(html).toContain('Attempt 1');
    expect(html).toContain('Failed: HTTP 500');
    expect(html).toContain('1 July 2026 at 10:31');
  });

  it('open with nothing sent yet, says how to see one', () => {
    const html = render(<WebhookRow {...rowProps} open webhook={webhook()} />, [
      [webhookDeliveriesKey('w1'), { deliveries: [] }],
    ]);
    expect(html).toContain('Nothing sent yet.');
  });
});
