// Against the real system: someone who registered an address but has not followed
// the verification link signs in, and a DIP shared to that address stays closed to them. Every page
// says why (the banner under the header with 'Resend verification email', the shared DIP page and the
// dashboard's lists), the resend sends a new link, and following it opens the DIP with no new sign-in.
// Axe, and screenshots at 1280 and 375 px.
import { expect, test } from '@playwright/test';
import { caughtMail, linkInMailTo, newUser } from './support/mail-helpers';
import { searchAndCreateDip } from './support/search-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375, screenshotBothWidths } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'verification needs the real services');

const VERIFY_TITLE = 'Please verify your email address';

/** The newest verification link mailed to `email` (a resend replaces the older one). */
async function newestVerificationToken(email: string, after: number): Promise<string> {
  let token: string | null = null;
  await expect(async () => {
    const caught = await caughtMail();
    if (typeof caught === 'string') throw new Error(caught);
    const links = caught.messages
      .filter((m) => JSON.stringify(m.to).toLowerCase().includes(email.toLowerCase()))
      .flatMap((m) => m.links ?? m.text?.match(/https?:\/\/\S+/g) ?? [])
      .filter((href) => href.includes('/verify-email'));
    expect(links.length).toBeGreaterThan(after);
    // /dev/mail/messages lists the newest first.
    token = new URL(links[0]!).searchParams.get('token');
  }).toPass({ timeout: 30_000 });
  return token!;
}

test('an unverified account cannot open what is shared to its address until it verifies', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const owner = await newUser(browser, 'Vera Owner');
  const dip = await searchAndCreateDip(owner.page, owner.id, 'Quayside Lofts');

  // Someone registers the address the DIP is shared to, and signs in without verifying it.
  const email = `unverified-${Date.now()}@example.com`;
  const password = 'correct-horse-42';
  const context = await browser.newContext();
  const page = await context.newPage();
  expect(
    (
      await page.request.post('/api/auth/register', {
        data: { name: 'Uma Unverified', email, password, confirmPassword: password },
      })
    ).ok(),
  ).toBe(true);
  expect((await page.request.post('/api/login', { data: { email, password } })).ok()).toBe(true);
  // The registration email counts as the first send; a resend within 60 s sends nothing.
  const registeredAt = Date.now();
  const shared = await owner.page.request.post(`/api/online-dip/${dip.dipId}/share`, {
    data: { recipients: [email], message: 'For your review' },
  });
  expect(shared.status()).toBe(201);
  const link = new URL(await linkInMailTo(email, (href) => href.includes('/shared/'), 'the share link'));

  // The emailed link: the page says why, the banner offers the resend; the DIP is not shown.
  await page.goto(link.pathname + link.search);
  const banner = page.getByRole('region', { name: 'Email verification' });
  await expect(banner.getByText(VERIFY_TITLE, { exact: true })).toBeVisible();
  await expect(banner).toContainText(email);
  await expect(page.getByText(/This opens once your email address is verified/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Loan Details' })).toHaveCount(0);
  await expect(page.getByText("This link has expired or you don't have access to view it.")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'shared-dip-unverified');
  await expectNoOverflowAt375(page);

  // The dashboard: Shared with me says the same; the banner is on every page.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/dashboard?tab=shared');
  await expect(
    page.getByRole('tabpanel').getByText(/This opens once your email address is verified/),
  ).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Resend verification email' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dashboard-unverified');
  await expectNoOverflowAt375(page);

  // The API refuses with the message the pages show, and offers the resend.
  const refused = await page.request.get('/api/shared');
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ verificationRequired: true });

  // Resend: a new link arrives; following it unlocks the DIP in the same session.
  await page.setViewportSize({ width: 1280, height: 800 });
  const allowance = registeredAt + 61_000 - Date.now();
  if (allowance > 0) await page.waitForTimeout(allowance);
  await banner.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(page.getByTestId('toast')).toContainText('Email Sent');
  const token = await newestVerificationToken(email, 1);
  expect((await page.request.get(`/api/verify-email?token=${encodeURIComponent(token)}`)).ok()).toBe(true);
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Read-only view')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Loan Details' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Email verification' })).toHaveCount(0);
  await context.close();
});
