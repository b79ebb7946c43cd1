// The account page's API keys in the browser, against the real services: an address not verified
// yet is refused in the services' words; once verified, a key is made with chosen scopes, shown once
// and copied, then works alone as `Authorization: Bearer` (no cookie) until it is revoked, after
// which the next call is 401.
import { expect, test } from '@playwright/test';
import { API_KEY_MESSAGES, API_KEY_PATTERN } from '@lsp/contracts';
import { verificationLinkFor } from './support/mail-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375 } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'needs the whole system (identity, gateway, mail catcher)');

test('API keys: refused until verified, made and copied once, used as a bearer, revoked', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const email = `brenda.broker.${Date.now()}@example.com`;
  const password = 'correct-horse-42';
  const registered = await page.request.post('/api/auth/register', {
    data: { name: 'Brenda Broker', email, password, confirmPassword: password },
  });
  expect(registered.ok()).toBe(true);
  const signIn = () => page.request.post('/api/login', { data: { email, password } });
  expect((await signIn()).ok()).toBe(true);

  // Signed in but not verified: the list and the create form say what the services say.
  await page.goto('/account');
  const keys = page.getByRole('region', { name: 'API keys' });
  await expect(keys.getByText('Please verify your email address', { exact: true })).toBeVisible();
  await keys.getByLabel('Key name').fill('CRM sync');
  await keys.getByRole('button', { name: 'Create API key' }).click();
  await expect(keys.getByRole('alert').filter({ hasText: 'API key not created' })).toBeVisible();
  await expect(page.getByTestId('toast')).toContainText('API key not created');
  const refused = await page.request.post('/api/api-keys', { data: { name: 'x' } });
  expect(refused.status()).toBe(403);
  const refusal = ((await refused.json()) as { error: string }).error;
  await expect(keys.getByRole('alert').filter({ hasText: refusal })).toBeVisible();

  // Verified (through the emailed link): no keys yet, every scope ticked.
  const token = new URL(await verificationLinkFor(email)).searchParams.get('token');
  expect((await page.request.get(`/api/verify-email?token=${token}`)).ok()).toBe(true);
  expect((await signIn()).ok()).toBe(true);
  const me = (await (await page.request.get('/api/auth/me')).json()) as { user: { id: string } };
  await page.reload();
  await expect(keys.getByText('No API keys yet.')).toBeVisible();
  for (const box of await keys.getByRole('checkbox').all()) await expect(box).toBeChecked();

  // A name is required, and at least one scope.
  await keys.getByRole('button', { name: 'Create API key' }).click();
  await expect(keys.getByText('Name is required')).toBeVisible();
  await keys.getByLabel('Key name').fill('CRM sync');
  for (const box of await keys.getByRole('checkbox').all()) await box.uncheck();
  await keys.getByRole('button', { name: 'Create API key' }).click();
  await expect(keys.getByText('Choose at least one scope')).toBeVisible();
  await keys.getByLabel('Searches: read').check();
  await keys.getByLabel('DIPs and applications: read').check();
  await keys.getByRole('button', { name: 'Create API key' }).click();

  // Shown once, with Copy and the warning.
  const revealed = page.getByRole('group', { name: 'Your new API key' });
  await expect(revealed.getByText('It will not be shown again')).toBeVisible();
  const shown = await revealed.getByLabel('API key for CRM sync').inputValue();
  expect(shown).toMatch(API_KEY_PATTERN);
  await revealed.getByRole('button', { name: 'Copy' }).click();
  await expect(revealed.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(shown);
  const row = keys.getByRole('listitem').filter({ hasText: 'CRM sync' });
  await expect(row).toContainText(shown.slice(0, 16));
  await expect(row).toContainText('Searches: read, DIPs and applications: read');
  await expect(row).toContainText(/Last used\s*Never/);
  await expectNoAxeViolations(page);
  await expectNoOverflowAt375(page, 'the account page with a new key');
  await revealed.getByRole('button', { name: 'Done: hide it' }).click();
  await expect(revealed).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(copied);

  // The key alone (no cookie: the test's own request context) reads the user's searches.
  const searchesPath = `/api/user-searches/${me.user.id}`;
  expect((await request.get(searchesPath)).status()).toBe(401);
  const withKey = await request.get(searchesPath, { headers: { Authorization: `Bearer ${copied}` } });
  expect(withKey.status()).toBe(200);
  expect(await withKey.json()).toEqual([]);
  await page.reload();
  await expect(row).not.toContainText(/Last used\s*Never/);

  // Revoked after a confirmation (Cancel first keeps it): the next call with it is 401.
  await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
  await expect(dialog).toContainText('CRM sync stops working at once');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await request.get(searchesPath, { headers: { Authorization: `Bearer ${copied}` } })).status()).toBe(
    200,
  );
  await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByTestId('toast')).toContainText('API key revoked');
  await expect(keys.getByText('No API keys yet.')).toBeVisible();
  const afterRevoke = await request.get(searchesPath, { headers: { Authorization: `Bearer ${copied}` } });
  expect(afterRevoke.status()).toBe(401);
  expect(await afterRevoke.json()).toMatchObject({ success: false, error: API_KEY_MESSAGES.invalidKey });
  await context.close();
});
