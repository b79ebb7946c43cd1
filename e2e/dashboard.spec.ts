// The dashboard against the real system: a verified user's saved search in Search History (title,
// date, location, results, View Results), the inline rename (Enter saves, Escape cancels, empty
// refused), the four tabs with counts and ?tab=, the Refer a Friend dialog by keyboard, axe and
// screenshots at 1280 and 375 px.
import { expect, test } from '@playwright/test';
import { caughtMail, registerVerifyAndSignIn } from './support/mail-helpers';
import { runSavedDevelopmentSearch } from './support/search-helpers';
import { expectNoAxeViolations, screenshotBothWidths, tabTo } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'the dashboard needs the real services');

test('dashboard: greeting, search history with rename, tabs with counts and ?tab=, Refer a Friend', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `dash-${Date.now()}@example.com`;
  const user = await registerVerifyAndSignIn(page.request, {
    name: 'Priya Sharma',
    email,
    password: 'correct-horse-42',
  });

  // Nothing yet: the empty state offers the first search.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome back, Priya' })).toBeVisible();
  await expect(page.getByText('Total searches: 0')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start Your First Search' })).toHaveAttribute('href', '/');

  // A signed-in search is saved and listed.
  await runSavedDevelopmentSearch(page, 'Mill Lane Homes');
  const searches = (await (await page.request.get(`/api/user-searches/${user.id}`)).json()) as Array<{
    id: string;
    created_at: string;
    result_count: number;
  }>;
  expect(searches).toHaveLength(1);

  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Total searches: 1')).toBeVisible();
  const historyTab = page.getByRole('tab', { name: /Search History/ });
  await expect(historyTab).toHaveAttribute('aria-selected', 'true');
  await expect(historyTab).toContainText('1');
  const item = page.getByRole('listitem').filter({ hasText: 'Mill Lane Homes - Development Finance' });
  await expect(item).toBeVisible();
  await expect(item).toContainText(new Date(searches[0].created_at).toLocaleDateString('en-GB'));
  await expect(item).toContainText('London');
  await expect(item).toContainText(`${searches[0].result_count} result`);
  await expect(item.getByRole('link', { name: 'View Results' })).toHaveAttribute(
    'href',
    `/search-results/${searches[0].id}`,
  );
  await expect(item.locator('[data-loan-type="development"]')).toHaveCSS(
    'background-color',
    'rgb(31, 77, 138)',
  );
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dashboard-search-history');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);

  // Rename: empty is refused, Escape cancels, Enter saves.
  await item.getByRole('button', { name: /Rename/ }).click();
  const nameInput = page.getByLabel('Project name');
  await expect(nameInput).toBeFocused();
  await nameInput.fill('   ');
  await nameInput.press('Enter');
  await expect(page.getByText('Project name cannot be empty')).toBeVisible();
  await nameInput.fill('Abandoned name');
  await nameInput.press('Escape');
  await expect(page.getByText('Mill Lane Homes - Development Finance')).toBeVisible();
  await page.getByRole('button', { name: /Rename Mill Lane Homes/ }).click();
  await page.getByLabel('Project name').fill('Riverside Flats');
  await page.getByLabel('Project name').press('Enter');
  await expect(page.getByText('Project name updated successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Riverside Flats - Development Finance' })).toBeVisible();
  const renamed = (await (await page.request.get(`/api/user-searches/${user.id}`)).json()) as Array<{
    project_name: string;
  }>;
  expect(renamed[0].project_name).toBe('Riverside Flats');

  // Tabs: arrow keys move between them and ?tab= follows; ?tab= on arrival selects one.
  await historyTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /Applications/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/tab=applications/);
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/tab=dips/);
  await page.goto('/dashboard?tab=shared');
  await expect(page.getByRole('tab', { name: /Shared with me/ })).toHaveAttribute('aria-selected', 'true');
  await page.goto('/dashboard?tab=dips');
  await expect(page.getByRole('tab', { name: /DIPs/ })).toHaveAttribute('aria-selected', 'true');
  await expectNoAxeViolations(page);

  // A pending shared DIP slug moves the dashboard to the shared tab.
  await page.evaluate(() => localStorage.setItem('pendingDipSlug', 'some-slug'));
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/tab=shared/);

  // Refer a Friend by keyboard: name prefilled, email required, Escape closes and focus returns.
  const refer = page.getByRole('button', { name: 'Refer a Friend' });
  await refer.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Refer a Friend' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Your name')).toHaveValue('Priya Sharma');
  await expect(dialog.getByLabel('Message')).not.toHaveValue('');
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(
    dialog.getByText('Missing Information: Please fill in your name and referral email address'),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dashboard-refer-a-friend');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(refer).toBeFocused();

  // Sent for real, with the keyboard alone: 'Invitation Sent!', the dialog closes after 2 s and the
  // friend gets the email.
  const friend = `friend-${Date.now()}@example.com`;
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByLabel("Friend's email"));
  await page.keyboard.type(friend);
  await tabTo(page, dialog.getByRole('button', { name: 'Send Invitation' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').getByText('Invitation Sent!').first()).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 5000 });
  await expect
    .poll(
      async () => {
        const caught = await caughtMail();
        return typeof caught === 'string'
          ? caught
          : caught.messages.some((m) => JSON.stringify(m.to).includes(friend));
      },
      { timeout: 30_000 },
    )
    .toBe(true);

  // /refer: the dashboard with Refer a Friend open, not the dashboard remote's 404.
  await page.goto('/refer');
  await expect(page).toHaveURL(/\/dashboard\?refer=1$/);
  await expect(page.getByRole('dialog', { name: 'Refer a Friend' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Refer a Friend' })).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);
});
