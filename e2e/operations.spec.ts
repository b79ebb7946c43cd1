// The operations console against the real system: an ops user (OPS_EMAILS, set by the e2e stack)
// watches the live feed while a borrower searches in another browser context; search.completed
// arrives, Pause holds what comes next, the type filter hides other types, and the event opens on
// its payload, headers and correlation chain. A borrower gets no link and the 403 panel.
import { expect, test } from '@playwright/test';
import type { Browser, Locator, Page } from '@playwright/test';
import { registerVerifyAndSignIn } from './support/mail-helpers';
import {
  chooseLoanType,
  fillDevelopmentForm,
  startDevelopmentSearch,
  waitForResults,
} from './support/search-helpers';
import { expectNoAxeViolations, screenshotBothWidths } from './support/shell-helpers';

test.skip(process.env.E2E_STACK === 'frontends', 'The operations console needs the real services');

/** The address the e2e stack lists in OPS_EMAILS (e2e/support/global-setup.ts). */
const OPS_EMAIL = 'oncall@ops.example';

async function signedIn(browser: Browser, name: string, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const password = 'correct-horse-42';
  try {
    await registerVerifyAndSignIn(page.request, { name, email, password });
  } catch {
    // Already registered by an earlier attempt of this run: signing in is enough.
    const login = await page.request.post('/api/login', { data: { email, password } });
    expect(login.ok()).toBe(true);
  }
  return page;
}

async function searchAsBorrower(page: Page, projectName: string) {
  await startDevelopmentSearch(page, projectName);
  await waitForResults(page);
}

/** A count once it has stopped changing (two equal readings a second apart). */
async function settledCount(rows: Locator): Promise<number> {
  let last = -1;
  for (;;) {
    const now = await rows.count();
    if (now === last) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const feedRows = (page: Page, type: string) =>
  page.locator('.ops-table tbody tr').filter({ has: page.getByRole('button', { name: type, exact: true }) });

test('an ops user watches search.completed arrive, pauses, filters and opens the correlation chain', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const ops = await signedIn(browser, 'Olu Oncall', OPS_EMAIL);
  const borrower = await signedIn(browser, 'Bea Borrower', `bea-${Date.now()}@example.com`);

  await ops.goto('/dashboard');
  await ops.getByRole('link', { name: 'Operations' }).click();
  await expect(ops).toHaveURL(/\/operations$/);
  await expect(ops.getByRole('heading', { name: 'Operations', level: 1 })).toBeVisible();
  await expect(ops.getByText('Live', { exact: true })).toBeVisible();

  // A search in the other context shows up in the feed (counted once the replay of earlier events,
  // which other tests on this system made, has arrived).
  const before = await settledCount(feedRows(ops, 'search.completed'));
  await searchAsBorrower(borrower, 'Quay Street');
  const resultsShownAt = Date.now();
  await expect.poll(() => feedRows(ops, 'search.completed').count(), { timeout: 10_000 }).toBe(before + 1);
  // The aim is 2 s from the search to the feed. A shared CI machine makes a timed assertion
  // flaky, so the test reports the figure (the integration test and the bench measure the latency).
  const latency = `search.completed in the feed ${((Date.now() - resultsShownAt) / 1000).toFixed(1)} s after the results showed`;
  test.info().annotations.push({ type: 'feed latency', description: latency });
  console.log(latency);

  // Paused, the next search is held, not shown; Resume shows it.
  await ops.getByRole('button', { name: 'Pause' }).click();
  await searchAsBorrower(borrower, 'Quay Street Phase 2');
  await expect(ops.getByRole('button', { name: /Resume \([1-9]\d* waiting\)/ })).toBeVisible({
    timeout: 10_000,
  });
  await expect(feedRows(ops, 'search.completed')).toHaveCount(before + 1);
  await ops.getByRole('button', { name: /Resume/ }).click();
  await expect(feedRows(ops, 'search.completed')).toHaveCount(before + 2);

  // The filter keeps only the types asked for (the server replays the last matching events).
  await ops.getByLabel('Event types (prefixes, comma-separated)').fill('dip.');
  await ops.getByRole('button', { name: 'Apply filter' }).click();
  await expect(ops.getByText('Showing dip.')).toBeVisible();
  await expect(feedRows(ops, 'search.completed')).toHaveCount(0);
  await ops.getByLabel('Event types (prefixes, comma-separated)').fill('search.');
  await ops.getByRole('button', { name: 'Apply filter' }).click();
  await expect(feedRows(ops, 'search.completed').first()).toBeVisible({ timeout: 10_000 });
  const otherTypes = ops.locator('.ops-table tbody tr button.ops-link').filter({ hasNotText: /^search\./ });
  await expect(otherTypes).toHaveCount(0);

  // The event opens on its payload, headers and correlation chain.
  await feedRows(ops, 'search.completed').first().getByRole('button').click();
  const detail = ops.getByRole('dialog');
  await expect(detail.getByRole('heading', { name: 'Payload' })).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Headers' })).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Correlation chain' })).toBeVisible();
  await expect(detail.locator('.ops-chain__step').first()).toContainText('search.completed', {
    timeout: 10_000,
  });
  await expectNoAxeViolations(ops);
  await ops.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  await expectNoAxeViolations(ops);
  await screenshotBothWidths(ops, 'operations');
  await ops.setViewportSize({ width: 375, height: 812 });
  expect(await ops.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // A borrower: no link, and the console says it is for operations only.
  await borrower.goto('/dashboard');
  await expect(borrower.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(borrower.getByRole('link', { name: 'Operations' })).toHaveCount(0);
  await borrower.goto('/operations');
  await expect(borrower.getByText('Operations access only')).toBeVisible();
  expect((await borrower.request.get('/api/ops/health')).status()).toBe(403);
});

test("a visitor's way in is one correlation chain: search, lead, new account and its email", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const ops = await signedIn(browser, 'Ola Oncall', OPS_EMAIL);
  const visitor = await (await browser.newContext()).newPage();
  const email = `chain-${Date.now()}@example.com`;
  const password = 'correct-horse-42';

  await visitor.goto('/');
  await chooseLoanType(visitor, 'Development Finance');
  await fillDevelopmentForm(visitor, 'Chain Street');
  await visitor.getByRole('button', { name: 'Search Finance' }).click();
  const lead = visitor.getByRole('dialog', { name: 'Get Your Loan Results' });
  await lead.getByLabel('Full name').fill('Chris Chain');
  await lead.getByLabel('Email address').fill(email);
  await lead.getByLabel('Phone number').fill('07700 900123');
  await lead.getByText('Just Getting Started').click();
  await lead.getByLabel('I agree to be contacted with results and offers. *').check();
  await lead.getByRole('button', { name: 'Show Me the Best Offers' }).click();
  await expect(visitor).toHaveURL(/\/create-account$/, { timeout: 30_000 });
  const journey = await visitor.evaluate(() => sessionStorage.getItem('journeyId'));
  expect(journey).toMatch(/^journey-/);
  await visitor.getByLabel('Password', { exact: true }).fill(password);
  await visitor.getByLabel('Confirm password').fill(password);
  await visitor.getByRole('button', { name: 'Create Account' }).click();
  await expect(visitor).toHaveURL(/\/login$/, { timeout: 15_000 });

  // The search, its lead and the account made in another request are one chain, the email with it.
  const chain = async () => {
    const res = await ops.request.get(`/api/ops/events?correlationId=${encodeURIComponent(journey!)}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as {
      events: Array<{ envelope: { type: string }; jobs: Array<{ queue: string }> }>;
    };
  };
  await expect
    .poll(async () => (await chain()).events.map((event) => event.envelope.type), { timeout: 20_000 })
    .toEqual(
      expect.arrayContaining([
        'search.completed',
        'lead.captured',
        'identity.user.registered',
        'identity.verification.requested',
      ]),
    );
  await expect
    .poll(
      async () => {
        const event = (await chain()).events.find(
          (e) => e.envelope.type === 'identity.verification.requested',
        );
        return event?.jobs.map((job) => job.queue) ?? [];
      },
      { timeout: 20_000 },
    )
    .toContain('email');
});
