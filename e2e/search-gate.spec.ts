// The results-gate path (results → lead profile → /loan-results) and the application entry, with
// the API answered in the page.
import { expect, test } from '@playwright/test';
import { fulfillDeclared } from './support/api-mocks';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations, screenshotBothWidths } from './support/shell-helpers';
import { SAMPLE_OFFERS, SIGNED_IN_USER, lenderOrder, mockSearchApi } from './support/search-helpers';

async function holdResults(page: Page, extra: Record<string, string> = {}) {
  const pending = {
    results: SAMPLE_OFFERS,
    formData: { projectName: 'Quay Street', purchasePrice: 650000, gdv: 2400000, loanTerm: 18 },
    userData: { name: SIGNED_IN_USER.name, email: SIGNED_IN_USER.email, phone: '07700 900456' },
    loanType: 'development',
    timestamp: Date.now(),
    searchRunId: 'run-e2e-1',
  };
  await page.addInitScript(
    ([entry, user, more]) => {
      // Seed once: the pages remove what they consume, and a reload must not put it back.
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('pendingLoanResults', entry);
      localStorage.setItem('currentUser', user);
      for (const [key, value] of Object.entries(JSON.parse(more) as Record<string, string>))
        localStorage.setItem(key, value);
    },
    [
      JSON.stringify(pending),
      JSON.stringify({ ...SIGNED_IN_USER, userId: SIGNED_IN_USER.id }),
      JSON.stringify(extra),
    ] as const,
  );
}

test.describe('results gate and loan results', () => {
  test('the gate captures the investor profile, then loan results show once and clear the stored entries', async ({
    page,
  }) => {
    await mockSearchApi(page, { signedIn: true });
    let saved: unknown = null;
    await page.route('**/api/save-lead-info', async (route) => {
      saved = route.request().postDataJSON();
      await fulfillDeclared(route, 200, { success: true });
    });
    await holdResults(page);
    await page.goto('/results-gate');
    await expect(page.getByLabel('Name')).toHaveValue(SIGNED_IN_USER.name);
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
    await expect(page.getByLabel('Phone')).toHaveValue('07700 900456');
    const proceed = page.getByRole('button', { name: 'Continue' });
    await expect(proceed).toBeDisabled();
    await page
      .getByRole('group', { name: /How many properties do you own/ })
      .getByText('3-5', { exact: true })
      .click();
    await expectNoAxeViolations(page);
    await proceed.click();

    await expect(page).toHaveURL(/\/loan-results\?type=development$/);
    expect(saved).toMatchObject({
      userId: SIGNED_IN_USER.id,
      leadInfo: { fullName: SIGNED_IN_USER.name, propertiesOwned: '3-5' },
      searchData: { projectName: 'Quay Street', loanType: 'development' },
    });
    await expect(page.getByRole('heading', { name: 'Your Development Finance Results' })).toBeVisible();
    await expect(page.getByText('£650,000')).toBeVisible();
    await expect(page.getByText('18 months')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Ready to Apply?' })).toBeVisible();
    expect(await lenderOrder(page)).toHaveLength(4);
    const stored = await page.evaluate(() => [
      localStorage.getItem('pendingLoanResults'),
      localStorage.getItem('leadInfoCaptured'),
    ]);
    expect(stored).toEqual([null, null]);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'search-loan-results');

    // Share: each network gets a deal link made for it, opened in the window the
    // click opened; by keyboard; a link that cannot be made says so; Escape closes and focus returns.
    const token = 'S'.repeat(43);
    const dealShares: Array<Record<string, unknown>> = [];
    let dealShareFails = false;
    await page.route('**/api/referrals/deal-share', async (route) => {
      dealShares.push(route.request().postDataJSON() as Record<string, unknown>);
      if (dealShareFails)
        await fulfillDeclared(route, 429, { success: false, error: 'Too many invitations' });
      else await fulfillDeclared(route, 201, { success: true, signupToken: token });
    });
    await page
      .context()
      .route(/^https:\/\/(wa\.me|www\.facebook\.com|www\.linkedin\.com)\//, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>sharing page</title>' }),
      );
    const share = page.getByRole('button', { name: 'Share Castlegate Finance' });
    await share.focus();
    await page.keyboard.press('Enter');
    const shareDialog = page.getByRole('dialog', { name: 'Share this offer' });
    await shareDialog.getByLabel('Note (optional)').fill('Our bridging option');
    const networks = [
      ['WhatsApp', 'whatsapp', /^https:\/\/wa\.me\/\?text=.*%2Fshared-deal%2FS{43}$/],
      [
        'Facebook',
        'facebook',
        /^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=.*%2Fshared-deal%2FS{43}$/,
      ],
      [
        'LinkedIn',
        'linkedin',
        /^https:\/\/www\.linkedin\.com\/sharing\/share-offsite\/\?url=.*%2Fshared-deal%2FS{43}$/,
      ],
    ] as const;
    for (const [label, channel, url] of networks) {
      const opened = page.context().waitForEvent('page');
      await shareDialog.getByRole('button', { name: label }).click();
      const popup = await opened;
      await popup.waitForURL(url);
      await popup.close();
      // The share names the run and the offer: the server shares its own record of it.
      expect(dealShares.at(-1)).toMatchObject({
        channel,
        referrerId: SIGNED_IN_USER.id,
        loanType: 'development',
        note: 'Our bridging option',
        searchRunId: 'run-e2e-1',
        lenderId: 'castlegate-finance',
        productId: 'castlegate-finance-dev-1',
      });
      expect(dealShares.at(-1)).not.toHaveProperty('referralEmail');
      expect(JSON.parse(String(dealShares.at(-1)!.loanData))).toMatchObject({
        LenderName: 'Castlegate Finance',
      });
    }
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'loan-results-share');
    dealShareFails = true;
    const failedWindow = page.context().waitForEvent('page');
    await shareDialog.getByRole('button', { name: 'WhatsApp' }).click();
    const blank = await failedWindow;
    await expect(page.getByTestId('toast')).toContainText('Share Failed');
    await expect(page.getByTestId('toast')).toContainText('Unable to create share link. Please try again.');
    await expect.poll(() => blank.isClosed()).toBe(true);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(shareDialog).toBeHidden();
    await expect(share).toBeFocused();

    await page.getByRole('button', { name: 'Apply now with Castlegate Finance' }).click();
    await expect(page).toHaveURL(/\/dip\/development\/1$/);
    const application = await page.evaluate(() =>
      JSON.parse(localStorage.getItem('pendingApplication') ?? 'null'),
    );
    expect(application).toMatchObject({
      loanType: 'development',
      selectedLoan: { LenderName: 'Castlegate Finance' },
      formData: { projectName: 'Quay Street' },
    });
  });

  test('a failed lead save says so and stays on the gate', async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    // A failure no route declares: the service fell over.
    await page.route('**/api/save-lead-info', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"success":false,"error":"boom"}',
      }),
    );
    await holdResults(page);
    await page.goto('/results-gate');
    await page
      .getByRole('group', { name: /How many properties do you own/ })
      .getByText('10+', { exact: true })
      .click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Error saving information')).toBeVisible();
    await expect(page).toHaveURL(/\/results-gate$/);
  });

  test('the gate without held results sends the user home with "No search results found"', async ({
    page,
  }) => {
    await mockSearchApi(page, { signedIn: true });
    await page.goto('/results-gate');
    await expect(page.getByText('No search results found')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test('loan results without the lead flag go back to the gate', async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    await holdResults(page);
    await page.goto('/loan-results?type=development');
    await expect(page).toHaveURL(/\/results-gate$/);
  });

  test('loan results need a session', async ({ page }) => {
    await mockSearchApi(page, { signedIn: false });
    await holdResults(page, { leadInfoCaptured: 'true' });
    await page.goto('/loan-results?type=development');
    await expect(page).toHaveURL(/\/login\?next=%2Floan-results%3Ftype%3Ddevelopment$/);
  });
});

test.describe('application entry', () => {
  test('Continue Application in the breakdown carries the offer to /application', async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    await holdResults(page, { leadInfoCaptured: 'true' });
    await page.goto('/loan-results?type=development');
    await page.getByRole('button', { name: 'Details for Brickfield Capital' }).click();
    await expect(page).toHaveURL(/\/application$/);
    await expect(page.getByRole('heading', { name: 'Continue Your Application' })).toBeVisible();
    await expect(page.getByText('Brickfield Capital')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start DIP Application' })).toHaveAttribute(
      'href',
      '/dip/development/1',
    );
    await expectNoAxeViolations(page);
  });

  test('without a chosen offer it explains and offers a new search', async ({ page }) => {
    // An application is the signed-in user's: /application asks for a session first.
    await mockSearchApi(page, { signedIn: true });
    await page.goto('/application');
    await expect(page.getByRole('heading', { name: 'No application in progress' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start a New Search' })).toBeVisible();
  });
});
