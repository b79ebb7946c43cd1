import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

/** Four lender offers with distinct figures, so every sort key gives a different order. */
export const SAMPLE_OFFERS = [
  {
    LenderName: 'Aldermore Build',
    GrossLoan: 520000,
    NetLoan: 480000,
    InterestRate: 0.096,
    TrueMonthlyCost: 0.0095,
    ProfitForecast: 310000,
    DepositRequired: 120000,
    ArrangementFee: 10400,
    LenderExitFee: 5200,
    LoanToValue: 65,
    MonthlyPayment: 0,
  },
  {
    LenderName: 'Brickfield Capital',
    GrossLoan: 610000,
    NetLoan: 560000,
    InterestRate: 0.114,
    TrueMonthlyCost: 0.0112,
    ProfitForecast: 240000,
    DepositRequired: 60000,
    ArrangementFee: 12200,
    LenderExitFee: 6100,
    LoanToValue: 70,
    MonthlyPayment: 0,
  },
  {
    LenderName: 'Castlegate Finance',
    GrossLoan: 450000,
    NetLoan: 430000,
    InterestRate: 0.084,
    TrueMonthlyCost: 0.0081,
    ProfitForecast: 420000,
    DepositRequired: 170000,
    ArrangementFee: 9000,
    LenderExitFee: 4500,
    LoanToValue: 60,
    MonthlyPayment: 0,
  },
  {
    LenderName: 'Dovecote Lending',
    GrossLoan: 580000,
    NetLoan: 515000,
    InterestRate: 0.102,
    TrueMonthlyCost: 0.0104,
    ProfitForecast: 275000,
    DepositRequired: 90000,
    ArrangementFee: 0,
    LenderExitFee: 5800,
    LoanToValue: 68,
    MonthlyPayment: 0,
  },
];

export const SIGNED_IN_USER = {
  id: 'u-search-1',
  name: 'Priya Shah',
  email: 'priya.shah@example.com',
  verified: true,
};

/** Answers the session check, the search call and the save call as the real services would. */
export async function mockSearchApi(page: Page, options: { signedIn: boolean; offers?: unknown[] }) {
  const offers = options.offers ?? SAMPLE_OFFERS;
  const calls = { search: [] as unknown[], leads: [] as unknown[], saves: [] as unknown[] };
  await page.route('**/api/auth/me', (route) =>
    options.signedIn
      ? route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ user: SIGNED_IN_USER }),
        })
      : route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":"Not signed in"}' }),
  );
  await page.route(/\/api\/(development|bridging|commercial)$/, async (route) => {
    calls.search.push(route.request().postDataJSON());
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ success: true, data: { Results: offers } }),
    });
  });
  await page.route('**/api/leads', async (route) => {
    calls.leads.push(route.request().postDataJSON());
    await route.fulfill({ status: 201, contentType: 'application/json', body: '{"success":true}' });
  });
  await page.route('**/api/search', async (route) => {
    calls.saves.push(route.request().postDataJSON());
    await route.fulfill({
      status: 201,
      contentType: 'application/json',
      body: JSON.stringify({ search: { id: 'search-1' } }),
    });
  });
  return calls;
}

export async function chooseLoanType(
  page: Page,
  title: 'Development Finance' | 'Bridging Finance' | 'Commercial Loans',
) {
  await page.getByRole('group', { name: 'Choose Your Loan Type' }).getByText(title, { exact: true }).click();
}

/** Picks Yes or No in a Yes/No question of a search form. */
export async function answer(page: Page, question: string, choice: 'Yes' | 'No') {
  await page.getByRole('group', { name: question }).getByText(choice, { exact: true }).click();
}

export async function fillDevelopmentForm(page: Page, projectName = 'Mill Lane Homes') {
  await page.getByLabel('Project name').fill(projectName);
  await page.getByLabel('Property location').selectOption('London');
  await page.getByLabel('End use (property class)').selectOption('Residential');
  await page.getByLabel('Purchase price', { exact: true }).fill('650000');
  await page.getByLabel('Build cost', { exact: true }).fill('900000');
  await page.getByLabel('Gross development value (GDV)').fill('2400000');
  await answer(page, 'Do you want the maximum loan available?', 'Yes');
}

/** The order of lender names on the results grid. */
export async function lenderOrder(page: Page): Promise<string[]> {
  return page
    .getByRole('list', { name: 'Lender offers' })
    .getByRole('heading', { level: 3 })
    .allTextContents();
}

export async function waitForResults(page: Page) {
  await expect(page.getByRole('heading', { name: 'Search Results' })).toBeVisible({ timeout: 20_000 });
}
