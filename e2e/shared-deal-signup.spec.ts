// Against the real system: someone opens a deal sent to them while signed out, creates
// an account from it (/register?ref_deal_id={token}, remembered as signupReferralToken), verifies the
// emailed link and signs in, and lands on /shared-deal/{token}; the registration carried the deal, so
// sharing links it to the new account. Axe, screenshots and no overflow at 1280 and 375 px.
import { type APIRequestContext, type Browser, expect, test } from '@playwright/test';
import { SEARCH_PAYLOADS } from '../scripts/lib/journeys';
import { linkInMailTo, newUser } from './support/mail-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375, screenshotBothWidths } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'sign-up from a shared deal needs the real services');

/** Runs a bridging search as the signed-in sender: its first offer, and how a deal share names it. */
async function searchedOffer(request: APIRequestContext) {
  const run = await request.post('/api/bridging', { data: SEARCH_PAYLOADS.bridging });
  expect(run.status()).toBe(200);
  const { data } = (await run.json()) as {
    data: { SearchRunId: string; Results: Array<Record<string, unknown> & { LenderName: string }> };
  };
  const offer = data.Results[0]!;
  return {
    offer,
    deal: {
      loanType: 'bridging',
      searchRunId: data.SearchRunId,
      lenderId: offer.LenderId,
      productId: offer.ProductId,
      loanData: JSON.stringify(offer),
    },
  };
}

/** Shares a deal as the sender; returns the token of the deal's link. */
async function shareDeal(request: APIRequestContext, share: Record<string, unknown>) {
  const made = await request.post('/api/referrals/deal-share', { data: share });
  expect(made.status()).toBe(201);
  return ((await made.json()) as { signupToken: string }).signupToken;
}

/** The deal's page, in a browser of its own that is not signed in. */
async function openDealSignedOut(browser: Browser, signupToken: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/shared-deal/${signupToken}`);
  await expect(page.getByRole('heading', { name: 'A deal shared with you' })).toBeVisible();
  return { context, page };
}

test('a sign-up from a shared deal is verified, signed in and lands on the deal', async ({ browser }) => {
  test.setTimeout(120_000);
  const sender = await newUser(browser, 'Sadie Sender');
  const friend = `dealfriend-${Date.now()}@example.com`;
  const { deal } = await searchedOffer(sender.page.request);
  const signupToken = await shareDeal(sender.page.request, {
    referralEmail: friend,
    referrerId: sender.id,
    note: 'Worth a look',
    ...deal,
  });

  const { context, page } = await openDealSignedOut(browser, signupToken);
  const create = page.getByRole('link', { name: 'Create a free account' });
  await expect(create).toHaveAttribute('href', `/register?ref_deal_id=${signupToken}`);
  expect(await page.evaluate(() => localStorage.getItem('signupReferralToken'))).toBe(signupToken);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'shared-deal-signed-out');
  await expectNoOverflowAt375(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  await create.click();
  await expect(page).toHaveURL(new RegExp(`/register\\?ref_deal_id=${signupToken}$`));
  await expect(page.getByText('A loan deal has been shared with you')).toBeVisible();
  const password = 'correct-horse-42';
  await page.getByLabel('Full name').fill('Fran Friend');
  await page.getByLabel('Email address').fill(friend);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  const registration = page.waitForRequest(
    (r) => r.method() === 'POST' && r.url().endsWith('/api/auth/register'),
  );
  await page.getByRole('button', { name: 'Create Account' }).click();
  // The deal travels with the registration: sharing links it to the account (identity.user.registered).
  expect((await registration).postDataJSON()).toMatchObject({ refDealId: signupToken, fromSharedLink: true });
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  // The emailed link, opened in a browser that has never seen the deal: the server remembers it.
  const verifyLink = new URL(
    await linkInMailTo(friend, (href) => href.includes('/verify-email'), 'a verification link'),
  );
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(verifyLink.pathname + verifyLink.search);
  await expect(other.getByRole('heading', { name: 'Email Verified!' })).toBeVisible();
  await expect(other.getByText('Sign in to see the loan deal shared with you.')).toBeVisible();
  await expectNoAxeViolations(other);
  await screenshotBothWidths(other, 'verified-from-shared-deal');
  await expectNoOverflowAt375(other);
  await other.setViewportSize({ width: 1280, height: 800 });
  await other.getByRole('link', { name: 'Continue to Login' }).click();
  await other.getByLabel('Email address').fill(friend);
  await other.getByLabel('Password', { exact: true }).fill(password);
  await other.getByRole('button', { name: 'Sign In' }).click();
  await expect(other).toHaveURL(new RegExp(`/shared-deal/${signupToken}$`));
  await expect(other.getByRole('heading', { name: 'A deal shared with you' })).toBeVisible();
  await expect(other.getByText('Worth a look')).toBeVisible();
  await expect(other.getByRole('link', { name: 'Create a free account' })).toHaveCount(0);
  await expectNoAxeViolations(other);
  await elsewhere.close();
  await context.close();
});

test('a deal link made for WhatsApp opens the offer, the sharer and the note', async ({ browser }) => {
  test.setTimeout(90_000);
  const sender = await newUser(browser, 'Wanda Whatsapp');
  const { offer, deal } = await searchedOffer(sender.page.request);
  const signupToken = await shareDeal(sender.page.request, {
    referrerId: sender.id,
    channel: 'whatsapp',
    note: 'For the group chat',
    ...deal,
    // What the browser posts is only a reference: the deal page shows the run's own offer.
    loanData: JSON.stringify({ ...offer, LenderName: 'Forged Bank PLC', GrossLoan: 1 }),
  });
  const { context, page } = await openDealSignedOut(browser, signupToken);
  await expect(page.getByRole('main').getByText('Wanda Whatsapp')).toBeVisible();
  await expect(page.getByText('For the group chat')).toBeVisible();
  await expect(page.getByRole('heading', { name: offer.LenderName })).toBeVisible();
  await expect(page.getByText('Forged Bank PLC')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await expectNoOverflowAt375(page);
  await context.close();
});
