import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import { fulfillDeclared } from './api-mocks';

/**
 * An offer as the search service sends it: the figures a test cares about, the rest filled in
 * consistently, so the mocked answer matches the declared response (e2e/support/api-mocks.ts).
 */
export function declaredOffer(figures: Record<string, unknown> & { LenderName: string }) {
  const id = String(figures.LenderName)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return {
    LenderId: id,
    ProductId: `${id}-dev-1`,
    ProductName: 'Development Finance',
    LoanType: 'development',
    GrossLoan: 0,
    NetLoan: 0,
    InterestRate: 0,
    TrueMonthlyCost: 0,
    ProfitForecast: 0,
    DepositRequired: 0,
    MonthlyPayment: 0,
    ArrangementFee: 0,
    ArrangementFeePercOfValue: 0,
    LenderExitFee: 0,
    OtherLenderCosts: 0,
    LoanInterest: 0,
    TotalLenderCosts: 0,
    LoanToValue: 0,
    LoanToValueNet: 0,
    LoanTerm: 18,
    InterestTreatment: 'rolled',
    qualifiesBecause: [],
    closeToLimits: [],
    ...figures,
  };
}

/** The answer of a search that found `offers`, as the declared response has it. */
export function searchAnswer(offers: unknown[]) {
  return {
    success: true,
    message: `Found ${offers.length} loan options`,
    data: {
      Results: offers,
      Declined: [],
      Summary: {
        panelVersion: 'e2e',
        lendersSearched: offers.length,
        lendersWithoutProduct: 0,
        productsConsidered: offers.length,
        resultCount: offers.length,
        declinedCount: 0,
        declinedByReason: [],
      },
      SearchRunId: 'run-e2e-1',
    },
  };
}

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
    LoanInterest: 11000,
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
].map(declaredOffer);

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
      ? fulfillDeclared(route, 200, { user: SIGNED_IN_USER })
      : fulfillDeclared(route, 401, { success: false, error: 'Not signed in' }),
  );
  await page.route(/\/api\/(development|bridging|commercial)$/, async (route) => {
    calls.search.push(route.request().postDataJSON());
    await fulfillDeclared(route, 200, searchAnswer(offers));
  });
  await page.route('**/api/leads', async (route) => {
    calls.leads.push(route.request().postDataJSON());
    await fulfillDeclared(route, 201, {
      success: true,
      lead: { id: 'lead-e2e-1' },
      lendabilityScore: { score: 64, band: 'yellow', factors: [], tips: ['Agree the purchase price'] },
    });
  });
  await page.route('**/api/search', async (route) => {
    const body = route.request().postDataJSON() as { loanType: string };
    calls.saves.push(body);
    await fulfillDeclared(route, 201, {
      success: true,
      search: {
        id: 'search-1',
        userId: SIGNED_IN_USER.id,
        loanType: body.loanType,
        createdAt: '2026-11-25T09:00:00.000Z',
      },
    });
  });
  return calls;
}

export type LoanTypeTitle = 'Development Finance' | 'Bridging Finance' | 'Commercial Loans';

export async function chooseLoanType(page: Page, title: LoanTypeTitle) {
  await page.getByRole('group', { name: 'Choose Your Loan Type' }).getByText(title, { exact: true }).click();
}

/** Picks Yes or No in a Yes/No question of a search form. */
export async function answer(page: Page, question: string, choice: 'Yes' | 'No') {
  await page.getByRole('group', { name: question }).getByText(choice, { exact: true }).click();
}

/** The development form filled in for a project in `location` (a value of Property location). */
export async function fillDevelopmentForm(page: Page, projectName = 'Mill Lane Homes', location = 'London') {
  await page.getByLabel('Project name').fill(projectName);
  await page.getByLabel('Property location').selectOption(location);
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

/** Signed out, on the home page with the form of `title` open. */
export async function openSearchForm(page: Page, title: LoanTypeTitle) {
  await mockSearchApi(page, { signedIn: false });
  await page.goto('/');
  await chooseLoanType(page, title);
}

/** From the home page: the development form filled in (projectName, or the default) and sent. */
export async function startDevelopmentSearch(page: Page, projectName?: string, location?: string) {
  await page.goto('/');
  await chooseLoanType(page, 'Development Finance');
  await fillDevelopmentForm(page, projectName, location);
  await page.getByRole('button', { name: 'Search Finance' }).click();
}

/** A signed-in user's development search: its results shown, and the link to it once it is saved. */
export async function runSavedDevelopmentSearch(page: Page, projectName?: string, location?: string) {
  await startDevelopmentSearch(page, projectName, location);
  await waitForResults(page);
  await expect(page.getByRole('link', { name: 'View this saved search' })).toBeVisible();
}

/**
 * A signed-in user's development search through the form, which saves it to their account; returns
 * the account's saved searches as the dashboard lists them.
 */
export async function searchAndSave(page: Page, userId: string, projectName: string, location?: string) {
  await runSavedDevelopmentSearch(page, projectName, location);
  return (await (await page.request.get(`/api/user-searches/${userId}`)).json()) as Array<{ id: string }>;
}

/**
 * A signed-in user's development search (in `location`, London unless said), saved to their account,
 * and a DIP made from its first offer through the API (as Get DIP would); returns the DIP as the
 * create call answers it.
 */
export async function searchAndCreateDip(page: Page, userId: string, projectName: string, location?: string) {
  const [search] = await searchAndSave(page, userId, projectName, location);
  const created = await page.request.post(`/api/online-dip/create/${search!.id}/0`, {
    data: { validHours: 48 },
  });
  expect(created.ok()).toBe(true);
  const dip = (await created.json()) as { dipId: string; quoteCode: string; shareUrl: string };
  return { ...dip, searchId: search!.id };
}
