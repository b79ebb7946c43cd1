// DIPs through the dashboard against the real system: an owner's DIP in the DIPs tab, the owner
// modal driven by the URL (back/forward), the /dips/{id} deep link (and modal=0), the online DIP page,
// a real PDF, Copy Link (sharing's open invite) opened by a second user (read-only view, then in
// their Shared with me as Viewed), a targeted share for another address showing the mismatch panel,
// and Regenerate Link making the old link fail. Axe and screenshots at 1280 and 375 px.
import { expect, test } from '@playwright/test';
import {
  expectPdfDownload,
  openDipItem,
  ownerWithDip,
  pathOf,
  regenerateLinkFromMenu,
} from './support/dip-helpers';
import { newUser } from './support/mail-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375, screenshotBothWidths } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'DIPs need the real services');

test('owner DIP: tab, URL-driven modal, deep link, online page, PDF, Copy Link to a second user, regenerate', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page, dip } = await ownerWithDip(browser, 'Olivia Owner', 'Harbour View');

  // DIPs tab: quote code, Valid, the figures.
  const item = await openDipItem(page, dip.dipId);
  await expect(item.getByRole('heading', { name: dip.quoteCode })).toBeVisible();
  await expect(item.getByText('Valid', { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: /DIPs/ })).toContainText('1');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dashboard-dips');
  await expectNoOverflowAt375(page);

  // The link menu by keyboard: opens on Enter, arrows move, Escape closes and returns focus.
  const more = item.getByRole('button', { name: `More actions for ${dip.quoteCode}` });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Regenerate Link' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Set Expiry (30 days)' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(more).toBeFocused();

  // View DIP: the owner modal, its URL, Close, Back re-opens, Forward closes.
  const viewed = page.waitForRequest(
    (req) => req.url().endsWith('/api/telemetry/share-funnel') && req.postDataJSON()?.event === 'dip_viewed',
  );
  await item.getByRole('button', { name: `View DIP ${dip.quoteCode}` }).click();
  expect((await viewed).postDataJSON()).toMatchObject({
    event: 'dip_viewed',
    dipId: dip.dipId,
    context: 'owner',
  });
  const modal = page.getByRole('dialog', { name: 'Decision in Principle' });
  await expect(modal).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`dipId=${dip.dipId}`));
  await expect(page).toHaveURL(/modal=1/);
  await expect(page).toHaveURL(/context=owner/);
  for (const section of ['Borrower', 'Property', 'Loan Details', 'Financial Summary', 'Important Notice'])
    await expect(modal.getByRole('heading', { name: section })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dip-owner-modal');

  // Download PDF: a real PDF named after the quote code.
  await expectPdfDownload(
    page,
    () => modal.getByRole('button', { name: 'Download PDF' }).click(),
    dip.quoteCode,
  );

  await modal.getByText('Close', { exact: true }).click();
  await expect(modal).toBeHidden();
  await expect(page).not.toHaveURL(/dipId=/);
  await page.goBack();
  await expect(page.getByRole('dialog', { name: 'Decision in Principle' })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('dialog', { name: 'Decision in Principle' })).toBeHidden();

  // Deep link: into the dashboard's modal; modal=0 shows it on the page.
  await page.goto(`/dips/${dip.dipId}`);
  await expect(page).toHaveURL(new RegExp(`/dashboard\\?tab=dips&dipId=${dip.dipId}&modal=1`));
  await expect(page.getByRole('dialog', { name: 'Decision in Principle' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Decision in Principle' })).toBeHidden();
  await page.goto(`/dips/${dip.dipId}?modal=0`);
  await expect(page.getByRole('heading', { name: 'Loan Details' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto('/dips/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Unable to Load DIP' })).toBeVisible();
  await expect(page.getByText('DIP not found or may have been removed')).toBeVisible();

  // The online DIP page.
  await page.goto(new URL(dip.shareUrl).pathname);
  await expect(page.getByRole('heading', { name: 'Indicative Terms – DIP' })).toBeVisible();
  await expect(page.getByText(dip.quoteCode).first()).toBeVisible();
  await expect(page.getByText(/indicative and non-binding/)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dip-online-page');
  await expectNoOverflowAt375(page);
  await page.goto('/dip/not-a-real-slug-at-all');
  await expect(
    page.getByText("We couldn't find that DIP. It may be expired or you don't have access."),
  ).toBeVisible();

  // Copy Link: sharing's open invite, copied to the clipboard.
  await page.goto('/dashboard?tab=dips');
  await page.getByRole('button', { name: `Copy Link for ${dip.quoteCode}` }).click();
  await expect(page.getByText('DIP link copied')).toBeVisible();
  const openLink = await page.evaluate(() => navigator.clipboard.readText());
  expect(openLink).toMatch(/\/shared\/[\w-]+\?e=[\w-]+&sig=/);

  // A second user opens it: read-only view, then it is in their Shared with me, viewed.
  const friend = await newUser(browser, 'Finn Friend');
  await friend.page.goto(pathOf(openLink));
  await expect(friend.page.getByText('Read-only view')).toBeVisible();
  await expect(friend.page.getByRole('heading', { name: 'Loan Details' })).toBeVisible();
  await expectNoAxeViolations(friend.page);
  await screenshotBothWidths(friend.page, 'dip-shared-page');
  await friend.page.goto('/dashboard?tab=shared');
  const sharedItem = friend.page.getByRole('listitem').filter({ hasText: dip.quoteCode });
  await expect(sharedItem.getByText('Viewed', { exact: true })).toBeVisible();
  await expect(sharedItem).toContainText('Olivia Owner');
  await expectNoAxeViolations(friend.page);
  await screenshotBothWidths(friend.page, 'dashboard-shared-with-me');
  await sharedItem.getByRole('button', { name: `View DIP ${dip.quoteCode}` }).click();
  await expect(friend.page).toHaveURL(/shared=1/);
  await expect(
    friend.page
      .getByRole('dialog', { name: 'Decision in Principle' })
      .getByRole('heading', { name: 'Borrower' }),
  ).toBeVisible();
  await friend.page.keyboard.press('Escape');

  // Regenerate: the old link stops working.
  await regenerateLinkFromMenu(page, item, dip.quoteCode);
  // Sharing learns of the new link from dip's event a moment later: the old link fails from then on.
  await expect(async () => {
    await friend.page.goto(pathOf(openLink));
    await expect(friend.page.getByText('The shared deal could not be found.')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });

  // Set Expiry: 30 days from now.
  await page.getByRole('button', { name: `More actions for ${dip.quoteCode}` }).click();
  await page.getByRole('menuitem', { name: 'Set Expiry (30 days)' }).click();
  const in30Days = new Date(Date.now() + 30 * 24 * 3600_000).toLocaleDateString('en-GB');
  await expect(page.getByText(`This DIP now expires on ${in30Days}`)).toBeVisible();
});
