import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';

// The real services behind the gateway: identity, the email pipeline and the mail catcher.
test.skip(
  process.env.E2E_STACK === 'frontends',
  'needs the whole system (identity, notifications, mail catcher)',
);

interface CaughtMail {
  to: string | string[];
  subject: string;
  links?: string[];
}

async function verificationLinkFor(request: APIRequestContext, email: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const res = await request.get('/dev/mail/messages');
    if (res.ok()) {
      const { messages } = (await res.json()) as { messages: CaughtMail[] };
      const mail = messages.find((m) => [m.to].flat().some((to) => to.includes(email)));
      const link = mail?.links?.find((l) => l.includes('/verify-email'));
      if (link) return link;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no verification email for ${email} within 60 s`);
}

test('a visitor registers, verifies from the email, signs in to the dashboard and signs out', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = `sam.taylor.${Date.now()}@example.com`;
  const password = 'correct-horse-battery';
  await page.goto('/register');
  await page.getByLabel('Full name').fill('Sam Taylor');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  const link = await verificationLinkFor(request, email);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Email Verified!' })).toBeVisible();
  await page.getByRole('link', { name: 'Continue to Login' }).click();
  await expect(page).toHaveURL(/\/login/);

  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('a-wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('toast')).toContainText('Login failed');

  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome back, Sam' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Welcome, Sam Taylor');

  await page.evaluate(() => window.localStorage.setItem('authToken', 'left-over'));
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('authToken'))).toBeNull();
});

test('a verification link used twice explains the failure and offers a way forward', async ({ page }) => {
  await page.goto('/verify-email?token=not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Verification Failed' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
});
