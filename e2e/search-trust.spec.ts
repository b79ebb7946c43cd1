// What a borrower meets around the results, with the API answered in the page: the floating compare
// button under open dialogs, the way from a results list through the results gate to Apply Now and
// Share, and Back from an offer's details on /loan-results.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { fulfillDeclared } from './support/api-mocks';
import {
  SIGNED_IN_USER,
  lenderOrder,
  mockSearchApi,
  startDevelopmentSearch,
  waitForResults,
} from './support/search-helpers';

/** What a click at the centre of `box` would reach: the compare button, or what lies above it. */
async function topmostAt(page: Page, box: { x: number; y: number; width: number; height: number }) {
  return page.evaluate(
    ([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      if (!hit) return null;
      return hit.closest('.sr-compare-float') ? 'compare button' : hit.className || hit.tagName;
    },
    [box.x + box.width / 2, box.y + box.height / 2] as const,
  );
}

test.describe('results, signed in', () => {
  test.beforeEach(async ({ page }) => {
    await mockSearchApi(page, { signedIn: true });
    await startDevelopmentSearch(page);
    await waitForResults(page);
  });

  test("the floating 'Compare N Deals' button lies beneath an open dialog's backdrop", async ({ page }) => {
    await page.getByRole('button', { name: 'Compare Castlegate Finance' }).click();
    await expect(page.getByRole('button', { name: 'Compare 1 Deal' })).toBeVisible();
    // Found by its place rather than its role: an open dialog hides the page from the accessibility tree.
    const compare = page.locator('.sr-compare-float .ui-button');
    const box = (await compare.boundingBox())!;
    // The search's toast sits where the button does until it goes.
    await expect(page.getByTestId('toast')).toHaveCount(0);
    expect(await topmostAt(page, box)).toBe('compare button');
    await page.getByRole('button', { name: 'Details for Castlegate Finance' }).click();
    await expect(page.getByRole('dialog', { name: 'Castlegate Finance' })).toBeVisible();
    expect(await topmostAt(page, box)).not.toBe('compare button');
    // Not seen through the translucent backdrop either.
    await expect(compare).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(compare).toBeVisible();
    expect(await topmostAt(page, box)).toBe('compare button');
    // The compare dialog itself, too.
    await compare.click();
    await expect(page.getByRole('dialog', { name: 'Compare 1 Deal' })).toBeVisible();
    await expect(compare).toBeHidden();
  });

  test('results lead on through the gate to loan results with Apply Now and Share, and Back keeps them', async ({
    page,
  }) => {
    let saved: unknown = null;
    await page.route('**/api/save-lead-info', async (route) => {
      saved = route.request().postDataJSON();
      await fulfillDeclared(route, 200, { success: true });
    });
    const shown = await lenderOrder(page);
    await page.getByRole('button', { name: 'Continue to Apply & Share' }).click();
    await expect(page).toHaveURL(/\/results-gate$/);
    await expect(page.getByLabel('Name')).toHaveValue(SIGNED_IN_USER.name);
    await expect(
      page.getByText(`We found ${shown.length} lender option(s).`, { exact: false }),
    ).toBeVisible();
    // Leaving the gate leaves nothing held in storage behind it.
    expect(await page.evaluate(() => localStorage.getItem('pendingLoanResults'))).toBeNull();
    await page
      .getByRole('group', { name: /How many properties do you own/ })
      .getByText('3-5', { exact: true })
      .click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/loan-results\?type=development$/);
    expect(saved).toMatchObject({
      leadInfo: { propertiesOwned: '3-5' },
      searchData: { projectName: 'Mill Lane Homes', loanType: 'development' },
    });
    await expect(page.getByRole('heading', { name: 'Your Development Finance Results' })).toBeVisible();
    expect((await lenderOrder(page)).sort()).toEqual([...shown].sort());
    await expect(page.getByRole('button', { name: 'Apply now with Castlegate Finance' })).toBeVisible();
    await page.getByRole('button', { name: 'Share Castlegate Finance' }).click();
    await expect(page.getByRole('dialog', { name: 'Share this offer' })).toBeVisible();
    await page.keyboard.press('Escape');

    // Details goes to /application; Back returns to the same results, not 'No results found'.
    await page.getByRole('button', { name: 'Details for Castlegate Finance' }).click();
    await expect(page).toHaveURL(/\/application$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/loan-results\?type=development$/);
    await expect(page.getByRole('heading', { name: 'Your Development Finance Results' })).toBeVisible();
    expect((await lenderOrder(page)).sort()).toEqual([...shown].sort());
    await expect(page.getByText('No results found')).toHaveCount(0);
    // And so does Back from Apply Now.
    await page.getByRole('button', { name: 'Apply now with Castlegate Finance' }).click();
    await expect(page).toHaveURL(/\/dip\/development\/1$/);
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Your Development Finance Results' })).toBeVisible();
    expect((await lenderOrder(page)).sort()).toEqual([...shown].sort());
  });
});

test('an anonymous visitor is not offered the way to apply, which needs an account', async ({ page }) => {
  await mockSearchApi(page, { signedIn: false });
  await page.goto('/?verified=true');
  await expect(page.getByRole('button', { name: 'Continue to Apply & Share' })).toHaveCount(0);
});
