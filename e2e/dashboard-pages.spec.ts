// The dashboard's pages that the flows reach only when something is missing or wrong, against the real
// system: the /dips/{id} page itself (modal=0) and its 'Unable to Load DIP'; the online DIP page's
// not-found text; a shared link without its parameters and with a bad signature; an unknown shared
// deal; the Applications tab empty and then with an application unfolded. Each with axe, screenshots
// at 1280 and 375 px, and nothing sticking out at 375 px.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { newUser } from './support/mail-helpers';
import { searchAndCreateDip } from './support/search-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375, screenshotBothWidths } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'These pages need the real services');

test('every DIP, shared-link and deal page has its words when something is missing or wrong', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const { page, id } = await newUser(browser, 'Petra Pages');
  const look = async (name: string) => {
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, name);
    await expectNoOverflowAt375(page, name);
  };

  // The Applications tab before there is any.
  await page.goto('/dashboard?tab=applications');
  await expect(page.getByRole('heading', { name: 'No applications yet' })).toBeVisible();
  await look('dashboard-applications-empty');

  // A DIP of the user's own, shown on /dips/{id} itself.
  const dip = await searchAndCreateDip(page, id, 'Gallery Row');
  await page.goto(`/dips/${dip.dipId}?modal=0`);
  await expect(page.getByRole('heading', { name: 'Borrower' })).toBeVisible();
  await expect(page.getByText(dip.quoteCode).first()).toBeVisible();
  await look('dip-deep-link-page');

  // /dips/{id} of a DIP that does not exist.
  await page.goto(`/dips/${randomUUID()}?modal=0`);
  await expect(page.getByRole('heading', { name: 'Unable to Load DIP' })).toBeVisible();
  await expect(page.getByText('DIP not found or may have been removed')).toBeVisible();
  await look('dip-deep-link-not-found');

  // The online DIP page for a slug nobody has.
  await page.goto('/dip/AAAAAAAAAAAAAAAAAAAAAA');
  await expect(
    page.getByText("We couldn't find that DIP. It may be expired or you don't have access."),
  ).toBeVisible();
  await look('dip-online-not-found');

  // A shared link without e and sig, then with a signature that is not the platform's.
  const slug = new URL(dip.shareUrl).pathname.split('/').pop()!;
  await page.goto(`/shared/${slug}`);
  await expect(page.getByText('Invalid share link - missing parameters')).toBeVisible();
  await look('shared-link-missing-parameters');
  const e = Buffer.from('someone@example.com').toString('base64url');
  await page.goto(`/shared/${slug}?e=${e}&sig=not-a-real-signature`);
  await expect(page.getByText('The shared deal could not be found.')).toBeVisible();
  await look('shared-link-not-found');

  // A shared deal whose token does not exist.
  await page.goto(`/shared-deal/${'A'.repeat(43)}`);
  await expect(page.getByRole('heading', { name: 'Deal not found or expired' })).toBeVisible();
  await look('shared-deal-not-found');

  // The Applications tab with an application, its details unfolded.
  const applied = await page.request.post('/api/applications', {
    data: {
      userId: id,
      searchId: dip.searchId,
      loanType: 'development',
      propertyAddress: '3 Gallery Row, York YO1 7HH',
      loanAmount: 450000,
      term: 18,
    },
  });
  expect(applied.status()).toBe(201);
  await page.goto('/dashboard?tab=applications');
  const application = page.getByRole('listitem').filter({ hasText: '3 Gallery Row, York YO1 7HH' });
  await application.getByRole('button', { name: 'View Details' }).click();
  await expect(application.locator('dl')).toContainText('Loan application');
  await look('dashboard-applications');
});
