// Search and results, with the API answered in the page:
// the commercial lifetime cost, Profit and ROCE kept in the commercial comparison, held results after
// sign-in, the lead dialog's phone message and ticks, the default sort shown and a TMC of 0.
// Each is checked at 1280 and 375 px with axe.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { fulfillDeclared } from './support/api-mocks';
import { slowFirstPdf } from './support/dip-helpers';
import {
  BOTH_WIDTHS,
  expectNoAxeViolations,
  expectNoOverflowAt375,
  signInOnLogin,
} from './support/shell-helpers';
import {
  SAMPLE_OFFERS,
  SIGNED_IN_USER,
  declaredOffer,
  mockSearchApi,
  startDevelopmentSearch,
  waitForResults,
} from './support/search-helpers';

const COMMERCIAL_OFFERS = [
  {
    LenderName: 'Harbour Commercial',
    LoanType: 'commercial',
    GrossLoan: 180000,
    NetLoan: 176000,
    InterestRate: 0.072,
    TrueMonthlyCost: 0.0065,
    ProfitForecast: 24000,
    DepositRequired: 70000,
    MonthlyPayment: 1080,
    ArrangementFee: 3600,
    LoanToValue: 72,
    MortgageTerm: 25,
    InterestTreatment: 'serviced',
  },
  {
    LenderName: 'Northgate Bank',
    LoanType: 'commercial',
    GrossLoan: 160000,
    NetLoan: 157000,
    InterestRate: 0.068,
    TrueMonthlyCost: 0.0061,
    ProfitForecast: 31000,
    DepositRequired: 90000,
    MonthlyPayment: 906.67,
    ArrangementFee: 3200,
    LoanToValue: 64,
    MortgageTerm: 25,
    InterestTreatment: 'serviced',
  },
].map(declaredOffer);

/** Results held in the browser as an anonymous search leaves them ("Pending results"). */
async function holdResults(page: Page, loanType: string, results: unknown[]) {
  const pending = {
    results,
    formData: { projectName: 'Quay Street', loanType, currentValue: 250000, loanTerm: 18 },
    userData: { name: SIGNED_IN_USER.name, email: SIGNED_IN_USER.email },
    loanType,
    timestamp: Date.now(),
  };
  await page.addInitScript((entry) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.setItem('pendingLoanResults', entry);
  }, JSON.stringify(pending));
}

test.describe('commercial results', () => {
  test.beforeEach(async ({ page }) => {
    await mockSearchApi(page, { signedIn: true, offers: COMMERCIAL_OFFERS });
    await holdResults(page, 'commercial', COMMERCIAL_OFFERS);
    await page.goto('/');
    await waitForResults(page);
  });

  test('the commercial lifetime cost shows on the card and in the breakdown', async ({ page }) => {
    // 1,080 × 12 × 20 + 3,600
    const card = page.getByRole('article', { name: 'Harbour Commercial' });
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(card.getByText('Lifetime cost (20 years)')).toBeVisible();
      await expect(card.getByText('£262,800')).toBeVisible();
    }
    await page.getByRole('button', { name: 'Details for Northgate Bank' }).click();
    const dialog = page.getByRole('dialog', { name: 'Northgate Bank' });
    // 906.67 × 12 × 20 + 3,200 = 220,800.8
    await expect(dialog.getByText('Lifetime cost (20 years)')).toBeVisible();
    await expect(dialog.getByText('£220,801')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.setViewportSize(BOTH_WIDTHS[0]);
    await expectNoAxeViolations(page);
  });

  test('the commercial comparison keeps Profit and ROCE and adds Monthly Payment and LTV', async ({
    page,
  }) => {
    for (const name of ['Harbour Commercial', 'Northgate Bank'])
      await page.getByRole('button', { name: `Compare ${name}` }).click();
    await page.getByRole('button', { name: 'Compare 2 Deals' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compare 2 Deals' });
    const harbour = dialog.getByRole('region', { name: 'Harbour Commercial' });
    for (const label of ['Profit', 'ROCE', 'Monthly Payment', 'LTV'])
      await expect(harbour.getByText(label, { exact: true })).toBeVisible();
    await dialog.getByRole('tab', { name: 'Detailed Table' }).click();
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      const profit = dialog.getByRole('row', { name: /^Profit/ });
      await expect(profit).toContainText('£24,000');
      // The higher profit is the better value.
      await expect(profit.getByRole('cell').nth(1)).toContainText('Best');
      await expect(dialog.getByRole('row', { name: /^ROCE/ })).toContainText('34.29%');
      // The rule marks the highest monthly payment; the mark says Highest, not Best.
      const payment = dialog.getByRole('row', { name: /^Monthly Payment/ });
      await expect(payment).toBeVisible();
      await expect(payment).toContainText('Highest');
      await expect(payment).not.toContainText('Best');
      await expect(dialog.getByRole('row', { name: /^LTV/ })).toContainText('72.0%');
      await expectNoAxeViolations(page);
    }
  });
});

test.describe('development results', () => {
  test('the default order shows on Net Loan, and a TMC of 0 reads Contact for TMC', async ({ page }) => {
    const offers = SAMPLE_OFFERS.map((offer, index) =>
      index === 0 ? { ...offer, TrueMonthlyCost: 0 } : offer,
    );
    await mockSearchApi(page, { signedIn: true, offers });
    await startDevelopmentSearch(page);
    await waitForResults(page);
    const netLoan = page
      .getByRole('group', { name: 'Sort by' })
      .getByRole('button', { name: /^Sort by Net Loan,/ });
    const aldermore = page.getByRole('article', { name: 'Aldermore Build' });
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(netLoan).toHaveAttribute('aria-pressed', 'true');
      await expect(netLoan).toHaveAccessibleName('Sort by Net Loan, descending (default order)');
      await expect(netLoan).toContainText('↓');
      await expect(aldermore.getByText('Contact for TMC')).toBeVisible();
      await expectNoAxeViolations(page);
    }
    await expectNoOverflowAt375(page, 'the results');
    await netLoan.click();
    await expect(netLoan).toHaveAttribute('data-direction', 'asc');
    await expect(page.getByText('Sorted', { exact: true })).toBeVisible();
  });
});

test.describe('sign-in with held results', () => {
  test('signing in with results held takes the person to them, saved to the account', async ({ page }) => {
    const calls = await mockSearchApi(page, { signedIn: true });
    // The session check answers as the account is: signed out until the sign-in call.
    const session = await signInOnLogin(page, SIGNED_IN_USER);
    await holdResults(page, 'development', SAMPLE_OFFERS);
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      session.forgetSignIn();
      await page.evaluate(() => sessionStorage.removeItem('seeded')).catch(() => undefined);
      await page.goto('/login');
      await page.getByLabel('Email address').fill(SIGNED_IN_USER.email);
      await page.getByLabel('Password', { exact: true }).fill('a-good-password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page).toHaveURL(/\/$/);
      await waitForResults(page);
      await expect(page.getByText('4 of 4 results')).toBeVisible();
      await expectNoAxeViolations(page);
    }
    expect(calls.saves.length).toBeGreaterThanOrEqual(1);
  });
});

test.describe('the lead dialog', () => {
  test('a phone over 40 characters says why; properties owned and contact preference get ticks', async ({
    page,
  }) => {
    await mockSearchApi(page, { signedIn: false });
    await startDevelopmentSearch(page);
    const dialog = page.getByRole('dialog', { name: 'Get Your Loan Results' });
    const submit = dialog.getByRole('button', { name: 'Show Me the Best Offers' });
    await dialog.getByLabel('Full name').fill('Ann Lee');
    await dialog.getByLabel('Email address').fill('ann.lee@example.com');
    await dialog.getByText('Experienced Investor').click();
    await dialog.getByLabel('I agree to be contacted with results and offers. *').check();
    await expect(submit).toBeEnabled();
    const owned = dialog.getByRole('group', { name: /how many properties do you own/ });
    const contact = dialog.getByRole('group', { name: /How should we contact you/ });
    await expect(owned.getByText('valid', { exact: true })).toBeAttached();
    await expect(contact.getByText('valid', { exact: true })).toBeAttached();

    await dialog.getByLabel('Phone number').fill('0'.repeat(41));
    await expect(submit).toBeDisabled();
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(dialog.getByText('Phone must be at most 40 characters')).toBeVisible();
      await expect(dialog.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
      await expectNoAxeViolations(page);
    }
    await dialog.getByLabel('Phone number').fill('07700 900456');
    await expect(dialog.getByText('Phone must be at most 40 characters')).toHaveCount(0);
    await expect(submit).toBeEnabled();
  });
});

test.describe('Get DIP on a result', () => {
  test("Download PDF shows 'Preparing PDF…' while a first PDF renders, then Try again when it cannot be had", async ({
    page,
  }) => {
    await mockSearchApi(page, { signedIn: true });
    await page.route('**/api/telemetry/share-funnel', (route) => route.fulfill({ status: 204 }));
    await page.route('**/api/online-dip/create/**', (route) =>
      fulfillDeclared(route, 201, {
        ok: true,
        dipId: '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b',
        quoteCode: 'QK7M2PXR',
        shareUrl: 'http://localhost/dip/Xq7dT0pSlug00000000000A',
        expiresAt: '2026-11-28T10:05:00.000Z',
        validityHours: 48,
      }),
    );
    const pdf = slowFirstPdf();
    await page.route('**/api/online-dip/pdf/**', pdf.answer);
    await startDevelopmentSearch(page);
    await waitForResults(page);
    await page.getByRole('button', { name: 'Get DIP for Castlegate Finance' }).click();
    await page
      .getByRole('dialog', { name: 'Get a Decision in Principle' })
      .getByRole('button', { name: 'Create DIP' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Your Decision in Principle' });
    // The valid-until time through the one en-GB helper, in UK time.
    await expect(dialog.getByText('Valid until 28 November 2026 at 10:05')).toBeVisible();
    await dialog.getByRole('button', { name: 'Download PDF' }).click();
    await expect(dialog.getByText("The PDF isn't ready yet or could not be downloaded.")).toBeVisible();
    expect(pdf.asked()).toBe(2);
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(dialog.getByRole('button', { name: 'Try again' })).toBeVisible();
      await expectNoAxeViolations(page);
    }
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Try again' }).click();
    const working = dialog.getByRole('button', { name: 'Preparing PDF…' });
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(working).toBeDisabled();
      await expect(
        dialog.getByRole('status').filter({ hasText: 'The first download of a DIP can take a few seconds.' }),
      ).toBeVisible();
      await expectNoAxeViolations(page);
    }
    pdf.release();
    expect((await download).suggestedFilename()).toBe('DIP-QK7M2PXR.pdf');
    await expect(dialog.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
    await expect(dialog.getByText("The PDF isn't ready yet or could not be downloaded.")).toHaveCount(0);
  });
});
