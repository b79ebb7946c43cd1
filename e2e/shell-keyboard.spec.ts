// Keyboard behaviour of the design system's dialog, checked on the lead-capture dialog the search
// remote opens from the shell: focus moves in, Tab cannot leave it, Escape closes it and focus goes
// back to the button that opened it.
import { expect, test } from '@playwright/test';
import { fillDevelopmentForm, openSearchForm } from './support/search-helpers';

test('a dialog keeps keyboard focus inside, closes on Escape and returns focus to its opener', async ({
  page,
}) => {
  await openSearchForm(page, 'Development Finance');
  await fillDevelopmentForm(page);
  const opener = page.getByRole('button', { name: 'Search Finance' });
  await opener.focus();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Get Your Loan Results' });
  await expect(dialog).toBeVisible();
  const focusInsideDialog = () => dialog.evaluate((el) => el.contains(document.activeElement));
  await expect.poll(focusInsideDialog).toBe(true);
  // More Tab presses than the dialog has controls: focus wraps around and never reaches the page.
  for (let i = 0; i < 25; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focusInsideDialog()).toBe(true);
  }
  for (let i = 0; i < 5; i += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInsideDialog()).toBe(true);
  }

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});
