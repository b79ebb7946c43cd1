// The account page's webhooks in the browser, against the real services: an endpoint at a loopback
// receiver in this test (the stack runs with WEBHOOKS_ALLOW_PRIVATE_TARGETS=true, as global-setup
// starts it) is added, its signing secret shown once and copied; Send test delivers a signed
// `webhook.test` the receiver verifies, the deliveries list shows the try; removal is confirmed.
import { expect, test } from '@playwright/test';
import { WEBHOOK_MESSAGES } from '@lsp/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { newUser } from './support/mail-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375 } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'needs the whole system (notifications, its worker)');

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback endpoint that answers 200 and keeps what it was sent. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Standard Webhooks verification, written from the specification with node:crypto only. */
function signatureIsValid(secret: string, { headers, body }: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const expected = createHmac('sha256', key).update(signed).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((candidate) => {
      const [version, mac] = candidate.split(',');
      const given = Buffer.from(mac ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

test('webhooks: added with its secret shown once, sent a signed test, its delivery listed, removed', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  try {
    const { page } = await newUser(browser, 'Wendy Webhook');
    await page.goto('/account');
    const hooks = page.getByRole('region', { name: 'Webhooks' });
    await expect(hooks.getByText('No webhooks yet.')).toBeVisible();

    // Bad input is refused at the field, and nothing is added.
    await hooks.getByLabel('Endpoint URL').fill('crm.example.com/hooks');
    for (const box of await hooks.getByRole('checkbox').all()) await box.uncheck();
    await hooks.getByRole('button', { name: 'Add webhook' }).click();
    await expect(hooks.getByText(WEBHOOK_MESSAGES.urlInvalid)).toBeVisible();
    await expect(hooks.getByText('Choose at least one event')).toBeVisible();
    await expect(hooks.getByText('No webhooks yet.')).toBeVisible();

    await hooks.getByLabel('Endpoint URL').fill(receiver.url);
    await hooks.getByLabel('A DIP of yours is created').check();
    await hooks.getByLabel('Someone opens a DIP you shared').check();
    await hooks.getByRole('button', { name: 'Add webhook' }).click();

    // The secret, once, with Copy.
    const revealed = page.getByRole('group', { name: 'Your new signing secret' });
    await expect(revealed.getByText('It will not be shown again')).toBeVisible();
    await revealed.getByRole('button', { name: 'Copy' }).click();
    await expect(revealed.getByRole('button', { name: 'Copied' })).toBeVisible();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(await revealed.getByLabel(`Signing secret for ${receiver.url}`).inputValue()).toBe(secret);
    const row = hooks.getByRole('listitem').filter({ hasText: receiver.url });
    await expect(row).toContainText('Enabled');
    await expect(row).toContainText('dip.created, share.viewed');
    await expectNoAxeViolations(page);
    await expectNoOverflowAt375(page, 'the account page with a new webhook');
    await revealed.getByRole('button', { name: 'Done: hide it' }).click();
    await expect(revealed).toHaveCount(0);

    // Send test: the receiver gets a signed webhook.test, and the deliveries list shows the try.
    await row.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await expect(page.getByTestId('toast')).toContainText('Test sent');
    const deliveries = row.getByRole('list', { name: `Deliveries to ${receiver.url}` });
    await expect(async () => {
      await row.getByRole('button', { name: 'Refresh' }).click();
      await expect(deliveries.getByRole('listitem')).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    const item = deliveries.getByRole('listitem');
    await expect(item).toContainText('webhook.test');
    await expect(item).toContainText('Attempt 1');
    await expect(item).toContainText('Delivered (200)');
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(signatureIsValid(secret, delivery!)).toBe(true);
    expect(JSON.parse(delivery!.body)).toMatchObject({
      type: 'webhook.test',
      data: { webhookId: expect.any(String) },
    });
    await expectNoAxeViolations(page);
    await row.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    await expect(deliveries).toHaveCount(0);

    // Removed after a confirmation (Cancel first keeps it).
    await row.getByRole('button', { name: `Remove ${receiver.url}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this webhook?' });
    await expect(dialog).toContainText(receiver.url);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Remove ${receiver.url}` }).click();
    await dialog.getByRole('button', { name: 'Remove webhook' }).click();
    await expect(page.getByTestId('toast')).toContainText('Webhook removed');
    await expect(hooks.getByText('No webhooks yet.')).toBeVisible();
    expect((await page.request.get('/api/webhooks')).ok()).toBe(true);
    expect(await (await page.request.get('/api/webhooks')).json()).toEqual({ webhooks: [] });
  } finally {
    await receiver.close();
  }
});
