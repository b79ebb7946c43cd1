import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { fulfillDeclared, mockDeclared } from './support/api-mocks';
import {
  TEST_USER,
  answerDashboardListsEmpty,
  expectNoAxeViolations,
  screenshotBothWidths,
  signInOnLogin,
} from './support/shell-helpers';

const json = (status: number, body: unknown) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

async function signedOut(page: Page) {
  await mockDeclared(page, '**/api/auth/me', 401, { success: false, error: 'Not signed in' });
}

/** What identity answers a verification link it accepts. */
const VERIFIED = {
  success: true,
  message: 'Email verified successfully',
  user: { name: 'Jo Bloggs', email: 'jo@example.com' },
};

test.describe('shell sign-in pages', () => {
  test.beforeEach(async ({ page }) => signedOut(page));

  test('login shows required-field messages and toggles password visibility', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret-pass');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'login');
  });

  test('login shows the server error and the fallback toast wording', async ({ page }) => {
    // Deliberately not what identity answers (it always names the error): the page's own fallback wording.
    await page.route('**/api/login', (route) => route.fulfill(json(401, {})));
    await page.goto('/login');
    await page.getByLabel('Email address').fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('toast')).toContainText(
      'Invalid credentials. Please check your email and password.',
    );
    await expect(page.getByRole('main').getByText('Login failed', { exact: true }).last()).toBeVisible();
  });

  test('login with next goes back to that page, and shows the shared-access banner', async ({ page }) => {
    await page.unroute('**/api/auth/me');
    await signInOnLogin(page, TEST_USER);
    await answerDashboardListsEmpty(page, TEST_USER.id);
    await page.goto(`/login?next=${encodeURIComponent('/dashboard?tab=dips')}`);
    await expect(page.getByText('Shared Deal Access Required')).toBeVisible();
    await page.getByLabel('Email address').fill(TEST_USER.email);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\?tab=dips$/);
    await expect(page.getByRole('heading', { name: 'Welcome back, Alex' })).toBeVisible();
  });

  test('login shows the shared DIP banner and a register link that keeps the context', async ({ page }) => {
    await page.goto('/login?sharedDipId=dip-42');
    await expect(page.getByText('A Decision in Principle has been shared with you')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register?sharedDipId=dip-42',
    );
  });

  test('register validates with the register form messages', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Full name').fill('A');
    await page.getByLabel('Email address').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'register');
  });

  test('register from a shared DIP asks the user to verify their email first', async ({ page }) => {
    let sent: Record<string, unknown> | null = null;
    await page.route('**/api/auth/register', (route) => {
      sent = route.request().postDataJSON();
      return fulfillDeclared(route, 201, {
        success: true,
        user: { id: 'u-jo-1', name: 'Jo Bloggs', email: 'jo@example.com', verified: false },
        requiresVerification: true,
        message: 'Registration successful',
      });
    });
    await page.goto('/register?sharedDipId=dip-42');
    await page.getByLabel('Full name').fill('Jo Bloggs');
    await page.getByLabel('Email address').fill('jo@example.com');
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByLabel('Confirm password').fill('a-good-password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    expect(sent).toMatchObject({ name: 'Jo Bloggs', email: 'jo@example.com', fromSharedLink: true });
  });

  test('create-account shows the loan options found and goes to login 2 seconds after success', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const pending = {
        results: [{ LenderName: 'A' }, { LenderName: 'B' }, { LenderName: 'C' }],
        formData: { projectName: 'Mill Lane' },
        userData: { name: 'Jo Bloggs', email: 'jo@example.com' },
        timestamp: Date.now(),
        loanType: 'bridging',
      };
      window.localStorage.setItem('pendingLoanResults', JSON.stringify(pending));
    });
    await mockDeclared(page, '**/api/create-account', 201, {
      success: true,
      message: 'Account created. Check your email to verify it.',
    });
    await page.goto('/create-account');
    await expect(page.getByText('We found 3 loan options for you')).toBeVisible();
    await expect(page.getByLabel('Full name')).toHaveValue('Jo Bloggs');
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'create-account');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Phone number is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('Phone number').fill('07700 900123');
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByLabel('Confirm password').fill('a-good-passwordX');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm password').fill('a-good-password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Account created' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
  });

  test('verify-email without a token fails and offers the resend form', async ({ page }) => {
    await page.goto('/verify-email');
    await expect(page.getByRole('heading', { name: 'Verification Failed' })).toBeVisible();
    await expect(page.getByText('No verification token provided')).toBeVisible();
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByTestId('toast')).toContainText('Email Required');
    await expect(page.getByTestId('toast')).toContainText(
      'Please enter your email address to resend verification.',
    );
    await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'verify-email-failed');
  });

  test('verify-email with a good token shows Email Verified! and Continue to Login', async ({ page }) => {
    await mockDeclared(page, '**/api/verify-email?token=*', 200, VERIFIED);
    await page.goto('/verify-email?token=abc123');
    await expect(page.getByRole('heading', { name: 'Email Verified!' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Continue to Login' })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'verify-email-verified');
  });

  test('verify-email with a link already used says the address is verified and offers sign-in', async ({
    page,
  }) => {
    await mockDeclared(page, '**/api/verify-email?token=*', 409, {
      success: false,
      error: 'This email address has already been verified. Please sign in.',
      alreadyVerified: true,
      user: { name: 'Jo Bloggs', email: 'jo@example.com' },
    });
    await page.goto('/verify-email?token=used-once');
    await expect(page.getByRole('heading', { name: 'Email Already Verified' })).toBeVisible();
    await expect(
      page.getByText('This email address has already been verified. Please sign in.'),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verification Failed' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Shared Deal Access Required')).toHaveCount(0);
  });

  test('signing in after verifying, with results held, does not claim a deal was shared', async ({
    page,
  }) => {
    await mockDeclared(page, '**/api/verify-email?token=*', 200, VERIFIED);
    await page.goto('/thank-you');
    await page.evaluate(() =>
      window.localStorage.setItem(
        'pendingLoanResults',
        JSON.stringify({
          results: [{ LenderName: 'Castlegate Finance', GrossLoan: 450000, NetLoan: 430000 }],
          formData: {},
          userData: null,
          timestamp: Date.now(),
          loanType: 'development',
        }),
      ),
    );
    await page.goto('/verify-email?token=abc123');
    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await expect(page).toHaveURL(/\/login\?redirect=%2F%3Fverified%3Dtrue$/);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByText('Shared Deal Access Required')).toHaveCount(0);
  });

  test('verify-email with an expired token offers a resend that reports success', async ({ page }) => {
    await mockDeclared(page, '**/api/verify-email?token=*', 410, {
      success: false,
      error: 'Verification link has expired',
      canResend: true,
    });
    await mockDeclared(page, '**/api/auth/resend-verification', 200, {
      success: true,
      message: 'Verification email sent. Please check your inbox.',
    });
    await page.goto('/verify-email?token=old&email=jo%40example.com');
    await expect(page.getByText('Verification link has expired')).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveValue('jo@example.com');
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByTestId('toast')).toContainText(
      'Verification email sent. Please check your inbox.',
    );
  });

  test('thank-you page promises contact within 24 hours', async ({ page }) => {
    await page.goto('/thank-you');
    await expect(page.getByText(/within 24 hours/)).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'thank-you');
  });
});
