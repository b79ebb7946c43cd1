// The lead's Lendability Score and the verify gate's resend form, against the real system: an anonymous development search sends its lead inside the search request
// (no /api/leads call), the search service scores it, and the score is shown after the lead, on
// /create-account and beside the verify-your-email gate, in its colour band with every tip under
// 70. The gate's 'Resend verification email' opens a resend form ('Email Required', 'Email Sent').
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { startDevelopmentSearch } from './support/search-helpers';
import { expectNoAxeViolations, screenshotBothWidths } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'the score comes from the real search service');

/** The score card shows a number out of 100 in the band the spec gives it, and the tip under 70. */
async function expectScoreCard(page: Page) {
  const card = page.getByRole('region', { name: 'Your Lendability Score' });
  await expect(card).toBeVisible();
  const badge = card.locator('[data-band]');
  const score = Number((await badge.innerText()).match(/^\d+/)?.[0]);
  expect(score).toBeGreaterThanOrEqual(0);
  expect(score).toBeLessThanOrEqual(100);
  await expect(badge).toHaveAttribute('data-band', score >= 70 ? 'green' : score >= 50 ? 'yellow' : 'red');
  const tips = card.getByTestId('lendability-tip');
  if (score < 70) await expect(tips).not.toHaveCount(0);
  else await expect(tips).toHaveCount(0);
  return score;
}

test('development lead with the search, its score after the lead, and the gate resend form', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `lena-${Date.now()}@example.com`;
  const bodies: Record<string, unknown[]> = { development: [], leads: [] };
  page.on('request', (req) => {
    if (req.method() !== 'POST') return;
    const pathname = new URL(req.url()).pathname;
    if (pathname === '/api/development') bodies.development.push(req.postDataJSON());
    if (pathname === '/api/leads') bodies.leads.push(req.postDataJSON());
  });

  await startDevelopmentSearch(page, 'Score Street');
  const dialog = page.getByRole('dialog', { name: 'Get Your Loan Results' });
  await dialog.getByLabel('Full name').fill('Lena Lead');
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByText('Just Getting Started').click();
  await dialog.getByLabel('I agree to be contacted with results and offers. *').check();
  await dialog.getByRole('button', { name: 'Show Me the Best Offers' }).click();
  await expect(page).toHaveURL(/\/create-account$/, { timeout: 30_000 });

  // The lead went with the search request, and nowhere else.
  expect(bodies.leads).toEqual([]);
  expect(bodies.development).toHaveLength(1);
  expect(bodies.development[0]).toMatchObject({
    projectName: 'Score Street',
    lead: { name: 'Lena Lead', email, propertiesOwned: '0', consent: true },
  });

  // After the lead: the score on /create-account (a first-time investor with nothing agreed scores
  // under 70, so the first tip shows).
  const score = await expectScoreCard(page);
  expect(score).toBeLessThan(70);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'create-account-lendability-score');

  // The home page holds the results behind the gate, with the same score beside it.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Verify your email to see your results' })).toBeVisible();
  expect(await expectScoreCard(page)).toBe(score);

  // Resend opens a form in the gate (not the 'Verification Failed' page).
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Verification Failed' })).toHaveCount(0);
  const form = page.getByRole('form', { name: 'Send a new verification link' });
  await expect(form.getByLabel('Email address')).toHaveValue(email);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'verify-gate-resend-form');
  await form.getByLabel('Email address').fill('');
  await form.getByRole('button', { name: 'Send verification email' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Email Required' })).toBeVisible();
  await form.getByLabel('Email address').fill(email);
  await form.getByRole('button', { name: 'Send verification email' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Email Sent' })).toBeVisible();
});
