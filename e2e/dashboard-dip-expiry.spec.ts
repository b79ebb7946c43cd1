// An expired DIP against the real system (the DIPs and Shared with me tabs, 'DIP validity'): the
// owner shares a DIP by Copy Link, a second user opens it, then the DIP's expiry passes on
// the server's clock. The running stack has no test clock (the dip service's TestClock exists only
// in its in-process tests), so the owner's own Set Expiry call moves the expiry a few seconds ahead
// and the test waits for the server's real clock to pass it: the same `expiresAt <= now` rule, and
// sharing learns the new expiry from dip.expiry.changed as it would in production.
// Then: the owner's DIPs tab shows Expired with Copy Link and the link menu disabled, View DIP opens
// it with the Expired badge and Download PDF disabled; the recipient's Shared with me shows Expired,
// View DIP disabled, no Download PDF;
// the old link says the DIP has expired. Axe and screenshots at 1280 and 375 px.
import { expect, test } from '@playwright/test';
import {
  expectExpiredOwnerModal,
  letDipExpire,
  openDipItem,
  ownerWithDip,
  pathOf,
} from './support/dip-helpers';
import { newUser } from './support/mail-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375, screenshotBothWidths } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'DIP expiry needs the real services');

test('an expired DIP: Expired with disabled actions for the owner and the recipient', async ({ browser }) => {
  test.setTimeout(180_000);
  const { page, dip } = await ownerWithDip(browser, 'Esme Expiry', 'Lapsed Yard');

  // While valid: Copy Link gives an open invite, which a second user opens (it is then in their list).
  const item = await openDipItem(page, dip.dipId);
  await expect(item.getByText('Valid', { exact: true })).toBeVisible();
  // Sharing learns of a new DIP from its events, a moment after creation: Copy Link is tried again
  // until it has (as the person would), and must then succeed.
  await expect(async () => {
    await item.getByRole('button', { name: `Copy Link for ${dip.quoteCode}` }).click();
    await expect(page.getByText('DIP link copied')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const openLink = await page.evaluate(() => navigator.clipboard.readText());
  const friend = await newUser(browser, 'Rory Recipient');
  await friend.page.goto(pathOf(openLink));
  await expect(friend.page.getByText('Read-only view')).toBeVisible();

  // The expiry passes on the server: moved to 3 s from now by the owner, then the clock runs past it.
  await letDipExpire(page, dip.dipId);

  // The server now refuses the owner's link actions on it.
  expect((await page.request.post(`/api/online-dip/${dip.dipId}/regenerate-link`)).status()).toBe(410);

  // Owner: Expired, Copy Link and the menu disabled; View DIP says so.
  await page.goto('/dashboard?tab=dips');
  await expect(item.getByText('Expired', { exact: true })).toBeVisible();
  await expect(item.getByText('Valid', { exact: true })).toHaveCount(0);
  await expect(item.getByRole('button', { name: `Copy Link for ${dip.quoteCode}` })).toBeDisabled();
  await expect(item.getByRole('button', { name: `More actions for ${dip.quoteCode}` })).toBeDisabled();
  // An expired DIP cannot be extended (the spec's Expired rules): the item says so and what to do.
  await expect(item.getByText(/it can no longer be shared or extended/)).toBeVisible();
  expect((await page.request.post(`/api/online-dip/${dip.dipId}/expiry`, { data: {} })).status()).toBe(410);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dashboard-dips-expired');
  await expectNoOverflowAt375(page);
  await item.getByRole('button', { name: `View DIP ${dip.quoteCode}` }).click();
  const modal = page.getByRole('dialog', { name: 'Decision in Principle' });
  // The owner still opens it: the Expired badge, Download PDF disabled.
  await expectExpiredOwnerModal(modal);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'dip-owner-modal-expired');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // Recipient: Expired, View DIP disabled, Download PDF hidden (sharing learns the expiry by event).
  const shared = friend.page.getByRole('listitem').filter({ hasText: dip.quoteCode });
  await expect(async () => {
    await friend.page.goto('/dashboard?tab=shared');
    await expect(shared.getByText('Expired', { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(shared.getByRole('button', { name: `View DIP ${dip.quoteCode}` })).toBeDisabled();
  await expect(shared.getByRole('button', { name: /Download PDF/ })).toHaveCount(0);
  await expectNoAxeViolations(friend.page);
  await screenshotBothWidths(friend.page, 'dashboard-shared-expired');
  await expectNoOverflowAt375(friend.page);

  // The link itself no longer opens the DIP.
  await friend.page.goto(pathOf(openLink));
  await expect(friend.page.getByText('Read-only view')).toHaveCount(0);
  await expect(friend.page.getByText(/expired/i).first()).toBeVisible();
});
