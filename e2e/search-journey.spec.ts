// The borrower's whole path through the real system, for each loan type: an anonymous search, the
// lead dialog, account creation, the verification email read from the mail catcher, verification,
// sign-in and /?verified=true showing the very offers the search found. Needs the full stack (not
// the frontend-only harness) with the notifications service's mail catcher on.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import {
  answer,
  chooseLoanType,
  fillDevelopmentForm,
  lenderOrder,
  waitForResults,
} from './support/search-helpers';
import { verificationLinkFor } from './support/mail-helpers';

test.skip(
  process.env.E2E_STACK === 'frontends',
  'the journey needs the real services, not the frontend harness',
);

const FORMS = {
  development: {
    title: 'Development Finance' as const,
    fill: (page: Page, name: string) => fillDevelopmentForm(page, name),
  },
  bridging: {
    title: 'Bridging Finance' as const,
    fill: async (page: Page, name: string) => {
      await page.getByLabel('Project name').fill(name);
      await answer(page, 'Do you want the maximum loan available?', 'Yes');
    },
  },
  commercial: {
    title: 'Commercial Loans' as const,
    fill: async (page: Page, name: string) => {
      await page.getByLabel('Project name').fill(name);
      await answer(page, 'Do you want the maximum loan available?', 'Yes');
    },
  },
};

for (const [loanType, form] of Object.entries(FORMS)) {
  test(`${loanType}: anonymous search → lead → create account → verify by email → /?verified=true shows the same offers`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const email = `journey-${loanType}-${Date.now()}@example.com`;
    const password = 'correct-horse-42';

    await page.goto('/');
    await chooseLoanType(page, form.title);
    await form.fill(page, `Journey ${loanType}`);
    await page.getByRole('button', { name: 'Search Finance' }).click();

    const lead = page.getByRole('dialog', { name: 'Get Your Loan Results' });
    await lead.getByLabel('Full name').fill('Jordan Journey');
    await lead.getByLabel('Email address').fill(email);
    await lead.getByLabel('Phone number').fill('07700 900123');
    await lead.getByText('2-4', { exact: true }).click();
    await lead.getByLabel('I agree to be contacted with results and offers. *').check();
    await lead.getByRole('button', { name: 'Show Me the Best Offers' }).click();

    await expect(page).toHaveURL(/\/create-account$/, { timeout: 30_000 });
    const held = await page.evaluate(() => JSON.parse(localStorage.getItem('pendingLoanResults') ?? 'null'));
    expect(held?.loanType).toBe(loanType);
    const heldLenders: string[] = held.results.map((offer: { LenderName: string }) => offer.LenderName);
    expect(heldLenders.length).toBeGreaterThan(0);

    await expect(page.getByLabel('Email address')).toHaveValue(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });

    await page.goto(await verificationLinkFor(email));
    await expect(page.getByRole('heading', { name: 'Email Verified!' })).toBeVisible({ timeout: 15_000 });

    // Signed in on another device (a phone's mail app: nothing in its storage), the account already
    // has the search: the run travelled with the account and was saved at verification.
    const phone = await browser.newContext();
    try {
      const phonePage = await phone.newPage();
      await phonePage.goto('/login');
      await phonePage.getByLabel('Email address').fill(email);
      await phonePage.getByLabel('Password', { exact: true }).fill(password);
      await phonePage.getByRole('button', { name: 'Sign In' }).click();
      await expect(phonePage).toHaveURL(/\/dashboard/, { timeout: 15_000 });
      const phoneUser = (await (await phonePage.request.get('/api/auth/me')).json()) as {
        user: { id: string };
      };
      const onPhone = async () =>
        (await (await phonePage.request.get(`/api/user-searches/${phoneUser.user.id}`)).json()) as Array<{
          loan_type: string;
          project_name: string;
          api_response: { data: { Results: Array<{ LenderName: string }> } };
        }>;
      await expect.poll(async () => (await onPhone()).length).toBe(1);
      const [filed] = await onPhone();
      expect(filed).toMatchObject({ loan_type: loanType, project_name: `Journey ${loanType}` });
      expect(filed.api_response.data.Results.map((offer) => offer.LenderName).sort()).toEqual(
        [...heldLenders].sort(),
      );
    } finally {
      await phone.close();
    }

    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    await waitForResults(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(`${heldLenders.length} of ${heldLenders.length} results`)).toBeVisible();
    expect((await lenderOrder(page)).sort()).toEqual([...heldLenders].sort());

    // The unlocked search is filed under the new account and opens as a saved search.
    const me = (await (await page.request.get('/api/auth/me')).json()) as { user: { id: string } };
    const searchesOf = async () =>
      (await (await page.request.get(`/api/user-searches/${me.user.id}`)).json()) as Array<{
        id: string;
        loan_type: string;
      }>;
    await expect.poll(async () => (await searchesOf()).length).toBe(1);
    const [saved] = await searchesOf();
    expect(saved.loan_type).toBe(loanType);
    const link = page.getByRole('link', { name: 'View this saved search' });
    await expect(link).toHaveAttribute('href', `/search-results/${saved.id}`);
    await link.click();
    await expect(page.getByRole('heading', { name: 'Saved Search Results' })).toBeVisible();
    await expect(page.getByText(`${heldLenders.length} of ${heldLenders.length} results`)).toBeVisible();

    // Signed in and verified, the next search needs no lead dialog and is saved straight away.
    await page.goto('/');
    await chooseLoanType(page, form.title);
    await form.fill(page, `Journey ${loanType} again`);
    await page.getByRole('button', { name: 'Search Finance' }).click();
    await waitForResults(page);
    await expect(page.getByRole('dialog', { name: 'Get Your Loan Results' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View this saved search' })).toBeVisible();
    await expect.poll(async () => (await searchesOf()).length).toBe(2);
  });
}
