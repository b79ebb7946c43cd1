import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { PASSWORD_MESSAGES } from '@lsp/contracts';
import { linkInMailTo, registerVerifyAndSignIn } from './support/mail-helpers';
import { expectNoAxeViolations } from './support/shell-helpers';

// In the browser: password reset by email through the real services and
// the mail catcher, and the account page's change of password and 'Sign out everywhere'.
test.skip(
  process.env.E2E_STACK === 'frontends',
  'needs the whole system (identity, notifications, mail catcher)',
);

const OLD_PASSWORD = 'correct-horse-battery';
const NEW_PASSWORD = 'a-much-better-passphrase';

/** On the forgot-password page: asks for a link for `email`, and gets the confirmation. */
async function askForResetLink(page: Page, email: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeFocused();
  await expect(
    page.getByRole('main').getByRole('status').filter({ hasText: PASSWORD_MESSAGES.resetRequested }),
  ).toBeVisible();
}

test('forgot password: the emailed link sets a new password and signs out every other browser', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const email = `robin.ames.${Date.now()}@example.com`;

  // An older browser, signed in before the reset.
  const older = await browser.newContext();
  await registerVerifyAndSignIn(older.request, { name: 'Robin Ames', email, password: OLD_PASSWORD });
  const olderPage = await older.newPage();
  await olderPage.goto('/account');
  await expect(olderPage.getByRole('heading', { name: 'Your account' })).toBeVisible();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expectNoAxeViolations(page);

  // An unknown address gets exactly the confirmation a known one gets.
  await askForResetLink(page, `nobody.${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Ask for another link' }).click();
  await askForResetLink(page, email);

  const link = await linkInMailTo(email, (href) => href.includes('/reset-password?token='), 'a reset link');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The registration rules, announced at the field, which gets the focus.
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password').fill('short');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: 'Password must be at least 8 characters' }),
  ).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toBeFocused();

  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login\?reset=1$/);
  await expect(
    page.getByRole('main').getByRole('status').filter({ hasText: PASSWORD_MESSAGES.resetDone }),
  ).toBeVisible();

  // The old password is refused, the new one signs in.
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(OLD_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('toast')).toContainText('Login failed');
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The older browser's session ended with the reset.
  expect((await older.request.get('/api/auth/me')).status()).toBe(401);
  await olderPage.reload();
  await expect(olderPage).toHaveURL(/\/login/);
  await older.close();

  // The link worked once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('yet-another-passphrase');
  await page.getByLabel('Confirm new password').fill('yet-another-passphrase');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeFocused();
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: PASSWORD_MESSAGES.resetInvalid }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test('the account page changes the password and signs out everywhere', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const email = `kit.lane.${Date.now()}@example.com`;
  await registerVerifyAndSignIn(page.request, { name: 'Kit Lane', email, password: OLD_PASSWORD });
  const other = await browser.newContext();
  const signIn = await other.request.post('/api/login', { data: { email, password: OLD_PASSWORD } });
  expect(signIn.status()).toBe(200);

  await page.goto('/');
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: PASSWORD_MESSAGES.currentPasswordWrong }),
  ).toBeVisible();
  await expect(page.getByLabel('Current password')).toBeFocused();

  await page.getByLabel('Current password').fill(OLD_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByRole('main').getByRole('status').filter({ hasText: PASSWORD_MESSAGES.changed }),
  ).toBeVisible();
  // This browser stays signed in; the other one is signed out.
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);
  expect((await other.request.get('/api/auth/me')).status()).toBe(401);

  const again = await other.request.post('/api/login', { data: { email, password: NEW_PASSWORD } });
  expect(again.status()).toBe(200);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/login\?signedOut=everywhere$/);
  await expect(
    page.getByRole('main').getByRole('status').filter({ hasText: PASSWORD_MESSAGES.signedOutEverywhere }),
  ).toBeVisible();
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  expect((await other.request.get('/api/auth/me')).status()).toBe(401);
  await other.close();
});
