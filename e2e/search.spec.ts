// Browser tests of the search remote: forms, validation, conditional sections, recent searches, the
// anonymous and signed-in search flows, the verify gate and the results panel. They run against
// the frontends with the API answered in the page (see support/search-helpers.ts), so each rule is
// checked in isolation; the end-to-end journey through the real services is in search-journey.spec.ts.
import { expect, test } from '@playwright/test';
import { fulfillDeclared } from './support/api-mocks';
import { expectNoAxeViolations, screenshotBothWidths } from './support/shell-helpers';
import {
  SAMPLE_OFFERS,
  answer,
  chooseLoanType,
  lenderOrder,
  mockSearchApi,
  openSearchForm,
  startDevelopmentSearch,
  waitForResults,
} from './support/search-helpers';

test.describe('search home and forms', () => {
  test('shows the hero and three loan types with none selected at first', async ({ page }) => {
    await mockSearchApi(page, { signedIn: false });
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Find the Perfect Loan for Your Investment' }),
    ).toBeVisible();
    const types = page.getByRole('group', { name: 'Choose Your Loan Type' }).getByRole('radio');
    await expect(types).toHaveCount(3);
    for (const radio of await types.all()) await expect(radio).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Search Finance' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'search-home');
  });

  test('development: required messages, max loan hides net loan, build cost fills the derived costs', async ({
    page,
  }) => {
    await openSearchForm(page, 'Development Finance');
    await expect(page.getByLabel('Build term (months)')).toHaveValue('12');
    await expect(page.getByLabel('Loan term (months)')).toHaveValue('18');
    await expect(page.getByLabel('Contingency (%)')).toHaveValue('5');
    await page.getByRole('button', { name: 'Search Finance' }).click();
    for (const message of [
      'Project name is required',
      'Purchase price is required',
      'Build cost is required',
      'GDV is required',
      'Net loan amount is required when max loan is not selected',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await page.getByLabel('Build cost', { exact: true }).fill('400000');
    await page.getByLabel('Build cost', { exact: true }).blur();
    await expect(page.getByLabel('Build cost', { exact: true })).toHaveValue('400,000');
    await expect(page.getByLabel('Total build cost')).toHaveValue('420,000');
    await expect(page.getByLabel('Professional costs and fees')).toHaveValue('40,000');
    await page.getByLabel('Net loan required').fill('123');
    await answer(page, 'Do you want the maximum loan available?', 'Yes');
    await expect(page.getByLabel('Net loan required')).toHaveCount(0);
    await answer(page, 'Do you want the maximum loan available?', 'No');
    await expect(page.getByLabel('Net loan required')).toHaveValue('');
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'search-form-development');
  });

  test('number inputs accept only digits and commas and show UK separators after leaving', async ({
    page,
  }) => {
    await openSearchForm(page, 'Development Finance');
    const price = page.getByLabel('Purchase price', { exact: true });
    await price.pressSequentially('1a250-000');
    await expect(price).toHaveValue('1250000');
    await price.blur();
    await expect(price).toHaveValue('1,250,000');
  });

  test('a whole-pound field rounds typed or pasted pence to the pound and drops a pasted £', async ({
    page,
  }) => {
    await openSearchForm(page, 'Development Finance');
    const price = page.getByLabel('Purchase price', { exact: true });
    await price.pressSequentially('250000.75');
    await price.blur();
    await expect(price).toHaveValue('250,001');
    // A paste arrives as one change holding the whole text.
    await price.fill('£250,000.00');
    await price.blur();
    await expect(price).toHaveValue('250,000');
    await price.fill(' £ 180 000.40 ');
    await price.blur();
    await expect(price).toHaveValue('180,000');
  });

  test('commercial: owner-occupied, own or purchasing and fixed interest switch their fields', async ({
    page,
  }) => {
    await openSearchForm(page, 'Commercial Loans');
    await expect(page.getByLabel('Mortgage term (years)')).toHaveValue('25');
    await expect(page.getByLabel('Gross monthly rental income')).toHaveValue('2,000');
    await expect(page.getByLabel('Current value')).toHaveValue('250,000');
    await expect(page.getByLabel('Fixed rate term')).toHaveValue('FiveYear');

    await answer(page, 'Is the property owner-occupied?', 'Yes');
    await expect(page.getByLabel('Gross monthly rental income')).toHaveCount(0);
    await page
      .getByRole('group', { name: 'Do you own it or are you purchasing?' })
      .getByText("I'm purchasing")
      .click();
    await expect(page.getByLabel('Current value')).toHaveCount(0);
    await expect(page.getByLabel('Purchase price', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Purchase costs')).toBeVisible();
    await page.getByRole('group', { name: 'Interest type' }).getByText('Variable', { exact: true }).click();
    await expect(page.getByLabel('Fixed rate term')).toHaveCount(0);

    await page.getByRole('button', { name: 'Search Finance' }).click();
    await expect(page.getByText('Project name is required')).toBeVisible();
    await expect(page.getByText('Purchase price and costs are required when purchasing')).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'search-form-commercial');
  });

  test('bridging: developer exit swaps the property block, refurbishment adds its block, land shows planning', async ({
    page,
  }) => {
    await openSearchForm(page, 'Bridging Finance');
    await expect(
      page
        .getByRole('group', { name: 'What do you need the bridge for?' })
        .getByRole('radio', { name: /Purchase or Refinance/ }),
    ).toBeChecked();
    await expect(page.getByLabel('Loan term (months)')).toHaveValue('12');
    await expect(page.getByLabel('Current value')).toHaveValue('200,000');
    await expect(page.getByLabel('Planning permission')).toHaveCount(0);
    await page.getByRole('group', { name: 'Land or property?' }).getByText('Land', { exact: true }).click();
    await expect(page.getByLabel('Planning permission')).toHaveValue('NoPlanning');

    await page
      .getByRole('group', { name: 'What do you need the bridge for?' })
      .getByText('Refurbishment', { exact: true })
      .click();
    await expect(page.getByRole('group', { name: 'Refurbishment Details' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Property Details' })).toBeVisible();

    await page
      .getByRole('group', { name: 'What do you need the bridge for?' })
      .getByText('Developer Exit', { exact: true })
      .click();
    await expect(page.getByRole('group', { name: 'Property Details' })).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Developer Exit Details' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Refurbishment Details' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'search-form-bridging');
  });
});

test.describe('recent searches', () => {
  test('survive a reload, reload the form with a toast, and can be removed and cleared', async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    await startDevelopmentSearch(page, 'Orchard Court');
    await waitForResults(page);

    await page.reload();
    await chooseLoanType(page, 'Development Finance');
    await page.getByRole('button', { name: 'Recent searches (1)' }).click();
    const item = page.getByRole('button', { name: /^Orchard Court - Development Finance/ });
    await expect(item).toContainText('Just now');
    await item.click();
    await expect(page.getByText('Previous search loaded')).toBeVisible();
    await expect(page.getByLabel('Project name')).toHaveValue('Orchard Court');
    await expect(page.getByLabel('Build cost', { exact: true })).toHaveValue('900,000');

    await page.getByRole('button', { name: 'Recent searches (1)' }).click();
    await page.getByRole('button', { name: 'Remove Orchard Court - Development Finance' }).click();
    await expect(page.getByRole('button', { name: /Recent searches/ })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('loan-search-history-development'))).toBeNull();
  });

  test('corrupt stored history is logged, reset to empty and does not break the page', async ({ page }) => {
    await mockSearchApi(page, { signedIn: false });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.addInitScript(() => localStorage.setItem('loan-search-history-bridging', '{not json'));
    await page.goto('/');
    await chooseLoanType(page, 'Bridging Finance');
    await expect(page.getByRole('button', { name: 'Search Finance' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Recent searches/ })).toHaveCount(0);
    expect(errors.some((text) => text.includes('Failed to parse search history'))).toBe(true);
  });
});

test.describe('search flow', () => {
  test('an anonymous search asks for the lead, holds the results and goes to create-account; /?verified=true then shows them', async ({
    page,
  }) => {
    const calls = await mockSearchApi(page, { signedIn: false });
    await startDevelopmentSearch(page);

    const dialog = page.getByRole('dialog', { name: 'Get Your Loan Results' });
    await expect(dialog).toBeVisible();
    const submit = dialog.getByRole('button', { name: 'Show Me the Best Offers' });
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Full name').fill('A');
    await expect(dialog.getByText('Please enter your full name')).toBeVisible();
    await dialog.getByLabel('Full name').fill('Ann Lee');
    await dialog.getByLabel('Email address').fill('ann@nowhere');
    await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();
    await dialog.getByLabel('Email address').fill('ann.lee@example.com');
    await dialog.getByLabel('I agree to be contacted with results and offers. *').check();
    // Everything else is answered: the disabled submit says what it is waiting for.
    await expect(submit).toBeDisabled();
    const propertiesQuestion = dialog.getByRole('group', { name: /how many properties do you own/ });
    await expect(dialog.getByText('Please select number of properties')).toBeVisible();
    await expect(propertiesQuestion).toHaveAccessibleDescription(/Please select number of properties/);
    await dialog.getByText('Experienced Investor').click();
    await expect(dialog.getByText('Please select number of properties')).toHaveCount(0);
    await expect(dialog.getByText('valid', { exact: true }).first()).toBeAttached();
    await expect(dialog.getByRole('heading', { name: 'Project Readiness' })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'search-lead-modal');
    await submit.click();

    await expect(page.getByText('Stage 1 of 3', { exact: true })).toBeVisible();
    await expect(page.getByText('33%')).toBeVisible();
    await expect(page).toHaveURL(/\/create-account$/, { timeout: 15_000 });
    // Development's lead travels with the search request (the spec); nothing goes to /api/leads.
    expect(calls.leads).toHaveLength(0);
    expect(calls.search[0]).toMatchObject({
      lead: { name: 'Ann Lee', email: 'ann.lee@example.com', propertiesOwned: '5+', consent: true },
    });
    const pending = await page.evaluate(() =>
      JSON.parse(localStorage.getItem('pendingLoanResults') ?? 'null'),
    );
    expect(pending).toMatchObject({ loanType: 'development', formData: { projectName: 'Mill Lane Homes' } });
    expect(pending.results).toHaveLength(SAMPLE_OFFERS.length);

    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Verify your email to see your results' })).toBeVisible();
    await expect(page.getByText('4 lender options')).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto('/?verified=true');
    await waitForResults(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('4 of 4 results')).toBeVisible();
  });

  test('pending results older than an hour are deleted instead of gating the page', async ({ page }) => {
    await mockSearchApi(page, { signedIn: false });
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem(
          'pendingLoanResults',
          JSON.stringify({
            results: [{ LenderName: 'Old' }],
            formData: {},
            userData: null,
            loanType: 'bridging',
            timestamp: Date.now() - 61 * 60_000,
          }),
        );
      }
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verify your email to see your results' })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('pendingLoanResults'))).toBeNull();
  });

  test('a failed search shows the error toast and closes the overlay', async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    // A failure no route declares: the service fell over.
    await page.route(/\/api\/development$/, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"success":false,"error":"boom"}',
      }),
    );
    await startDevelopmentSearch(page);
    await expect(page.getByText('Search failed')).toBeVisible();
    await expect(page.getByText('Please try again or contact support')).toBeVisible();
    await expect(page.getByText(/Stage \d of 3/)).toHaveCount(0);
  });
});

test.describe('results panel', () => {
  test.beforeEach(async ({ page }) => {
    const calls = await mockSearchApi(page, { signedIn: true });
    await startDevelopmentSearch(page);
    await waitForResults(page);
    expect(calls.saves).toHaveLength(1);
    expect(calls.search[0]).toMatchObject({
      userId: 'u-search-1',
      projectName: 'Mill Lane Homes',
      maxLoanRequired: true,
    });
  });

  test('shows counts, the four highlights and net loan descending by default', async ({ page }) => {
    await expect(page.getByText('Search completed successfully')).toBeVisible();
    await expect(page.getByText('4 of 4 results')).toBeVisible();
    const highlights = page
      .getByRole('region', { name: 'Top Loan Highlights' })
      .or(page.locator('section[aria-labelledby="highlights-title"]'));
    for (const title of ['Lowest Deposit', 'Highest Gross Loan', 'Lowest Interest Rate', 'Maximum Profit'])
      await expect(highlights.getByText(title)).toBeVisible();
    expect(await lenderOrder(page)).toEqual([
      'Brickfield Capital',
      'Dovecote Lending',
      'Aldermore Build',
      'Castlegate Finance',
    ]);
    await expect(page.getByText('Sorted', { exact: true })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'search-results');
  });

  test('the default order shows on Net Loan; each sort key cycles descending, ascending, then back to the default order', async ({
    page,
  }) => {
    // Rate orders by true monthly cost, and its button says so.
    const expected: Record<string, [string[], string[]]> = {
      'Rate \\(true monthly cost\\)': [
        ['Brickfield Capital', 'Dovecote Lending', 'Aldermore Build', 'Castlegate Finance'],
        ['Castlegate Finance', 'Aldermore Build', 'Dovecote Lending', 'Brickfield Capital'],
      ],
      Profit: [
        ['Castlegate Finance', 'Aldermore Build', 'Dovecote Lending', 'Brickfield Capital'],
        ['Brickfield Capital', 'Dovecote Lending', 'Aldermore Build', 'Castlegate Finance'],
      ],
      Deposit: [
        ['Castlegate Finance', 'Aldermore Build', 'Dovecote Lending', 'Brickfield Capital'],
        ['Brickfield Capital', 'Dovecote Lending', 'Aldermore Build', 'Castlegate Finance'],
      ],
    };
    const defaultOrder = ['Brickfield Capital', 'Dovecote Lending', 'Aldermore Build', 'Castlegate Finance'];
    const netLoan = page
      .getByRole('group', { name: 'Sort by' })
      .getByRole('button', { name: /^Sort by Net Loan,/ });
    await expect(page.getByRole('group', { name: 'Sort by' })).toContainText('Rate (TMC)');
    // The default order (net loan, high to low) shows on Net Loan; its first click turns it ascending.
    await expect(netLoan).toHaveAttribute('data-direction', 'desc');
    await expect(netLoan).toHaveAccessibleName('Sort by Net Loan, descending (default order)');
    await netLoan.click();
    await expect(netLoan).toHaveAttribute('data-direction', 'asc');
    await expect(page.getByText('Sorted', { exact: true })).toBeVisible();
    expect(await lenderOrder(page)).toEqual([...defaultOrder].reverse());
    await netLoan.click();
    await expect(netLoan).toHaveAttribute('data-direction', 'desc');
    await expect(page.getByText('Sorted', { exact: true })).toHaveCount(0);
    expect(await lenderOrder(page)).toEqual(defaultOrder);
    for (const [label, [descending, ascending]] of Object.entries(expected)) {
      const button = page
        .getByRole('group', { name: 'Sort by' })
        .getByRole('button', { name: new RegExp(`^Sort by ${label},`) });
      await button.click();
      await expect(button).toHaveAttribute('data-direction', 'desc');
      await expect(page.getByText('Sorted', { exact: true })).toBeVisible();
      expect(await lenderOrder(page)).toEqual(descending);
      await button.click();
      await expect(button).toHaveAttribute('data-direction', 'asc');
      expect(await lenderOrder(page)).toEqual(ascending);
      await button.click();
      await expect(button).toHaveAttribute('data-direction', 'none');
      await expect(netLoan).toHaveAttribute('data-direction', 'desc');
      await expect(page.getByText('Sorted', { exact: true })).toHaveCount(0);
      expect(await lenderOrder(page)).toEqual(defaultOrder);
    }
  });

  test('filters narrow the list and show the Filtered badge', async ({ page }) => {
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('Max interest rate (%)').fill('1');
    await expect(page.getByText('2 of 4 results')).toBeVisible();
    await expect(page.getByText('Filtered', { exact: true })).toBeVisible();
    await page.getByLabel('Min estimated profit (£)').fill('400000');
    await expect(page.getByText('1 of 4 results')).toBeVisible();
    expect(await lenderOrder(page)).toEqual(['Castlegate Finance']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByText('4 of 4 results')).toBeVisible();
  });

  test('compare allows three deals, disables the rest and opens the comparison with best values', async ({
    page,
  }) => {
    for (const name of ['Aldermore Build', 'Brickfield Capital', 'Castlegate Finance'])
      await page.getByRole('button', { name: `Compare ${name}` }).click();
    await expect(page.getByRole('button', { name: 'Compare Dovecote Lending' })).toBeDisabled();
    const open = page.getByRole('button', { name: 'Compare 3 Deals' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Compare 3 Deals' });
    await expect(dialog.getByRole('tab', { name: 'Quick Highlights' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expectNoAxeViolations(page);
    await dialog.getByRole('tab', { name: 'Detailed Table' }).click();
    const rateRow = dialog.getByRole('row', { name: /Interest Rate/ });
    await expect(rateRow.getByRole('cell').nth(2)).toContainText('Best');
    await dialog.getByRole('button', { name: 'What is Gross Loan?' }).focus();
    await expect(page.getByRole('tooltip')).toContainText('total amount borrowed');
    await screenshotBothWidths(page, 'search-compare-dialog');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: 'Compare Aldermore Build' }).click();
    await expect(page.getByRole('button', { name: 'Compare 2 Deals' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Compare Dovecote Lending' })).toBeEnabled();
  });

  test('the breakdown shows the loan details and the raw response, and Get DIP opens its dialog', async ({
    page,
  }) => {
    await page.getByRole('button', { name: 'Details for Castlegate Finance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Castlegate Finance' });
    await expect(dialog.getByText('Complete loan breakdown and terms')).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Loan Details' })).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Returns & Performance' })).toBeVisible();
    // The picture of where the gross loan goes, named and described in words. Its interest is the
    // list's Loan interest; the exit fee is paid when the loan is repaid, so it is beside the bar.
    const picture = dialog.getByRole('img', { name: 'Where the gross loan goes' });
    await expect(picture).toBeVisible();
    await expect(picture).toHaveAccessibleDescription(
      'Gross loan £450,000: net loan £430,000 (95.6%), arrangement fee and costs £9,000 (2.0%), interest £11,000 (2.4%). Exit fee £4,500, paid when the loan is repaid. Your deposit, beside it: £170,000.',
    );
    const legend = dialog.locator('.sr-flow__legend');
    await expect(legend).toContainText('Net loan £430,000 95.6%');
    await expect(legend).toContainText('Interest £11,000');
    await expect(dialog.locator('.sr-breakdown__row', { hasText: 'Loan interest' })).toContainText('£11,000');
    await expect(legend).toContainText('Your deposit £170,000');
    await screenshotBothWidths(page, 'search-breakdown-picture');
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(picture).toBeVisible();
    const sizes = await picture.evaluate((svg) => ({
      svg: svg.getBoundingClientRect().right,
      dialog: svg.closest('[role="dialog"]')!.getBoundingClientRect().right,
    }));
    expect(sizes.svg).toBeLessThanOrEqual(sizes.dialog);
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByText('Raw API Response').click();
    await expect(dialog.locator('pre')).toContainText('"LenderName": "Castlegate Finance"');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('button', { name: 'Get DIP for Castlegate Finance' }).click();
    const getDip = page.getByRole('dialog', { name: 'Get a Decision in Principle' });
    await expect(getDip.getByText('Castlegate Finance')).toBeVisible();
    await expect(getDip.getByRole('button', { name: 'Create DIP' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(getDip).toBeHidden();
  });

  test('Compact hides the secondary figures and Expanded brings them back', async ({ page }) => {
    await expect(page.getByText('True monthly cost').first()).toBeVisible();
    await page.getByRole('button', { name: 'Compact' }).click();
    await expect(
      page.getByRole('list', { name: 'Lender offers' }).getByText('True monthly cost'),
    ).toHaveCount(0);
    await page.getByRole('button', { name: 'Expanded' }).click();
    await expect(
      page.getByRole('list', { name: 'Lender offers' }).getByText('True monthly cost').first(),
    ).toBeVisible();
  });
});

test.describe('saved search page', () => {
  test('a 403 says Access denied with Back to Dashboard', async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    await page.route('**/api/search-result/abc', (route) =>
      fulfillDeclared(route, 403, { success: false, error: 'Access denied' }),
    );
    await page.goto('/search-results/abc');
    await expect(page.getByText('Access denied')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  });

  test('other failures say Failed to fetch search result', async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    // A failure no route declares: the service fell over.
    await page.route('**/api/search-result/abc', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await page.goto('/search-results/abc');
    await expect(page.getByText('Failed to fetch search result')).toBeVisible();
  });
});
