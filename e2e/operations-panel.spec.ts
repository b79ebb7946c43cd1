// The Lender panel page against the real system. An ops user reaches it from the operations console,
// uploads a panel file in which the product that makes a saved bridging search's best offer is half
// the price, reads the diff, measures the impact on saved searches (the progress bar to the counts),
// activates the draft and rolls back to the version that was active, so the specs after this one
// price on the panel they expect. A refused file shows each problem with its line; a product edit
// makes a draft (and a taken version name is refused); a load that fails offers Retry; a borrower
// gets the console's refusal.
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { newUser } from './support/mail-helpers';
import { SHIPPED_PANEL, activeVersion, cheaperPanelFile } from './support/panel-helpers';
import { OPS_EMAIL, signedInPage } from './support/ops-helpers';
import { expectNoAxeViolations, expectNoOverflowAt375, screenshotBothWidths } from './support/shell-helpers';
import { SEARCH_PAYLOADS } from '../scripts/lib/journeys';

test.skip(process.env.E2E_STACK === 'frontends', 'The Lender panel page needs the real services');

/** A bridging deal the shipped panel prices (as the search service's own tests send it). */
const BRIDGING_DEAL = { ...SEARCH_PAYLOADS.bridging, projectName: 'Panel Row refinance' };

/** '0.85% pm', as the page shows a monthly rate. */
const perMonth = (rate: number) =>
  `${(Math.round(rate * 100 * 1e6) / 1e6).toLocaleString('en-GB', { maximumFractionDigits: 3 })}% pm`;

/** A borrower's bridging search, saved to their account (for the impact to re-price); its best offer. */
async function savedBridgingSearch(request: APIRequestContext, userId: string) {
  const run = await request.post('/api/bridging', { data: { ...BRIDGING_DEAL, userId } });
  expect(run.ok()).toBe(true);
  const answer = (await run.json()) as { data: { Results: Array<{ LenderId: string; ProductId: string }> } };
  const saved = await request.post('/api/search', {
    data: { userId, loanType: 'bridging', searchData: BRIDGING_DEAL, apiResponse: answer },
  });
  expect(saved.status()).toBe(201);
  const [best] = answer.data.Results;
  return { lenderId: best.LenderId, productId: best.ProductId };
}

async function openPanelPage(page: Page) {
  await page.goto('/operations');
  await page.getByRole('link', { name: 'Lender panel' }).click();
  await expect(page).toHaveURL(/\/operations\/panel$/);
  await expect(page.getByRole('heading', { name: 'Lender panel', level: 1 })).toBeVisible();
}

async function uploadFile(page: Page, name: string, content: string) {
  await page.getByRole('tab', { name: 'Upload a file' }).click();
  await page
    .getByLabel('Panel file (.jsonl)')
    .setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(content) });
  await page.getByRole('button', { name: 'Upload as draft' }).click();
}

const review = (page: Page, version: string): Locator =>
  page.getByRole('region', { name: `Version ${version}`, exact: true });

let original: string | undefined;

/** The on-call operator on the Lender panel page, the version active before this spec noted. */
async function opsOnPanelPage(browser: Browser) {
  const ops = await signedInPage(browser, 'Olu Oncall', OPS_EMAIL);
  original ??= await activeVersion(ops.request);
  await openPanelPage(ops);
  return ops;
}

/** The Edit a product tab with the first product of Albion & Mercer Bank chosen. */
async function editFirstAlbionProduct(ops: Page) {
  await ops.getByRole('tab', { name: 'Edit a product' }).click();
  await ops.getByRole('combobox', { name: 'Lender' }).selectOption({ label: 'Albion & Mercer Bank' });
  await ops.getByRole('combobox', { name: 'Product' }).selectOption({ index: 1 });
}

test.afterAll(async ({ browser }) => {
  // Whatever happened above, the version active before this spec is active after it.
  if (!original) return;
  const ops = await signedInPage(browser, 'Olu Oncall', OPS_EMAIL);
  if ((await activeVersion(ops.request)) !== original)
    await ops.request.post(`/api/ops/panel/versions/${encodeURIComponent(original)}/activate`);
  await ops.context().close();
});

test('upload → diff → impact → activate → roll back, from the operations console', async ({ browser }) => {
  test.setTimeout(240_000);
  const ops = await signedInPage(browser, 'Olu Oncall', OPS_EMAIL);
  original = await activeVersion(ops.request);
  const borrower = await newUser(browser, 'Pat Panel');
  const best = await savedBridgingSearch(borrower.page.request, borrower.id);
  const version = `e2e-cheaper-${Date.now()}`;
  const { content, changed } = cheaperPanelFile(version, best.lenderId, best.productId);

  await ops.goto('/dashboard');
  await ops.getByRole('link', { name: 'Operations' }).click();
  await expect(ops).toHaveURL(/\/operations$/);
  await openPanelPage(ops);
  const active = ops.getByRole('region', { name: 'Active version' });
  await expect(active).toContainText(original);
  await expect(ops.getByRole('button', { name: original, exact: true })).toBeVisible();

  // Upload: the draft is stored and selected for review.
  await uploadFile(ops, 'cheaper.jsonl', content);
  await expect(ops.getByRole('tab', { name: 'Versions' })).toHaveAttribute('aria-selected', 'true');
  const draft = review(ops, version);
  await expect(draft).toBeVisible();
  await expect(ops.getByRole('button', { name: version, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Diff: the product, the term, before → after.
  const diff = draft.getByRole('region', { name: 'Diff' });
  await expect(diff.getByRole('heading', { name: `${changed.lender}: ${changed.product}` })).toBeVisible();
  const rateRow = diff.getByRole('row', { name: /Rate card band 1: rate per month/ });
  await expect(rateRow).toContainText(perMonth(changed.before));
  await expect(rateRow).toContainText(perMonth(changed.after));

  // Impact: the progress bar runs to done, then the counts.
  const impact = draft.getByRole('region', { name: 'Impact' });
  await expect(impact.getByText('Not measured yet.')).toBeVisible();
  await impact.getByRole('button', { name: 'Measure impact' }).click();
  await expect(impact.getByRole('progressbar', { name: 'Saved searches re-priced' })).toBeVisible();
  await expect(impact.getByText('Better best offer')).toBeVisible({ timeout: 120_000 });
  const progress = (await impact.getByText(/ re-priced/).textContent()) ?? '';
  const [, done, total] = /([\d,]+) of ([\d,]+) saved search/.exec(progress) ?? [];
  expect(done).toBe(total);
  expect(Number(total.replace(/,/g, ''))).toBeGreaterThanOrEqual(1);
  const better = impact
    .locator('dt', { hasText: 'Better best offer' })
    .locator('xpath=following-sibling::dd');
  expect(Number((await better.textContent())?.replace(/,/g, ''))).toBeGreaterThanOrEqual(1);
  await expect(impact.getByRole('button', { name: 'Measure again' })).toBeEnabled();

  await expectNoAxeViolations(ops);
  await expectNoOverflowAt375(ops, 'the Lender panel page');
  await screenshotBothWidths(ops, 'operations-panel');

  // Activate, after a confirmation: the overview shows the new version active.
  await draft.getByRole('button', { name: `Activate ${version}` }).click();
  const confirm = ops.getByRole('dialog', { name: `Activate ${version}?` });
  await expect(confirm).toContainText(`${original} becomes a previous version`);
  await expectNoAxeViolations(ops);
  await confirm.getByRole('button', { name: 'Activate', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(active).toContainText(version);
  await expect(active).toContainText(OPS_EMAIL);
  await expect(draft).toContainText('This is the active version');
  await expect(draft.getByRole('button', { name: 'Active version' })).toBeFocused();
  expect(await activeVersion(ops.request)).toBe(version);

  // Roll back: the version active before is a previous one, and its button says so.
  await ops.getByRole('button', { name: original, exact: true }).click();
  const previous = review(ops, original);
  await previous.getByRole('button', { name: `Roll back ${original}` }).click();
  const rollback = ops.getByRole('dialog', { name: `Roll back to ${original}?` });
  await rollback.getByRole('button', { name: 'Roll back', exact: true }).click();
  await expect(rollback).toBeHidden();
  await expect(active).toContainText(original);
  await expect(previous.getByRole('button', { name: 'Active version' })).toBeFocused();
  expect(await activeVersion(ops.request)).toBe(original);

  // The audit trail, newest first: the rollback, the activation, the measurement, the upload.
  await ops.getByRole('tab', { name: 'Audit trail' }).click();
  const rows = ops.getByRole('region', { name: 'Audit trail, newest first' }).locator('tbody tr');
  await expect(rows.nth(0)).toContainText('Rolled back');
  await expect(rows.nth(0)).toContainText(original);
  await expect(rows.nth(1)).toContainText('Activated');
  await expect(rows.nth(1)).toContainText(version);
  await expect(rows.nth(2)).toContainText('Impact measured');
  await expect(rows.nth(3)).toContainText('Uploaded');
  await expectNoAxeViolations(ops);
});

test('a refused file shows each problem with its line, and a taken version its clash', async ({
  browser,
}) => {
  const ops = await opsOnPanelPage(browser);
  await ops.setViewportSize({ width: 375, height: 812 });

  const lines = SHIPPED_PANEL.trimEnd().split('\n');
  lines[0] = JSON.stringify({ ...JSON.parse(lines[0]), version: `e2e-broken-${Date.now()}` });
  lines[2] = '{ not json';
  lines[4] = JSON.stringify({ ...JSON.parse(lines[4]), regions: [] });
  await uploadFile(ops, 'broken.jsonl', lines.join('\n'));
  const refused = ops
    .getByRole('alert')
    .filter({ hasText: 'The panel file has problems: nothing was stored' });
  await expect(refused).toBeVisible();
  const problems = refused.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem');
  await expect(problems).toHaveCount(2);
  await expect(problems.nth(0)).toHaveText(/^Line 3: not valid JSON/);
  await expect(problems.nth(1)).toHaveText(/^Line 5: invalid lender .*regions/);
  await expectNoAxeViolations(ops);
  await expectNoOverflowAt375(ops, 'the refused upload');
  await screenshotBothWidths(ops, 'operations-panel-refused');

  // The shipped panel's own version with other content is a clash.
  await uploadFile(
    ops,
    'clash.jsonl',
    SHIPPED_PANEL.replace('"Albion & Mercer Bank"', '"Albion and Mercer"'),
  );
  await expect(
    ops.getByRole('alert').filter({ hasText: 'A panel with this version is already stored' }),
  ).toBeVisible();
});

test("one product's terms edited into a draft; its diff; a taken version name refused", async ({
  browser,
}) => {
  const ops = await opsOnPanelPage(browser);
  await editFirstAlbionProduct(ops);
  const exitFee = ops.getByLabel('Exit fee (% of the loan)');
  const before = await exitFee.inputValue();
  await exitFee.fill('0.35');
  const version = `e2e-edit-${Date.now()}`;
  await ops.getByLabel('New version name').fill(version);
  await expectNoAxeViolations(ops);
  await expectNoOverflowAt375(ops, 'the product edit form');
  await screenshotBothWidths(ops, 'operations-panel-edit');
  await ops.getByRole('button', { name: 'Create draft' }).click();

  const draft = review(ops, version);
  const row = draft.getByRole('region', { name: 'Diff' }).getByRole('row', { name: /Fees: exit fee/ });
  await expect(row).toContainText(`${before}%`);
  await expect(row).toContainText('0.35%');
  await screenshotBothWidths(ops, 'operations-panel-edit-draft');

  // The same name again: the version is taken (nothing stored), said beside the name.
  await editFirstAlbionProduct(ops);
  await ops.getByLabel('Minimum term (months)').fill('13');
  await ops.getByLabel('New version name').fill(version);
  await ops.getByRole('button', { name: 'Create draft' }).click();
  const name = ops.getByLabel('New version name');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(
    ops.getByRole('alert').filter({ hasText: 'A panel with this version is already stored' }),
  ).toHaveCount(1);
  expect(await activeVersion(ops.request)).toBe(original);
});

test('a failed load offers Retry; a borrower gets the console’s refusal', async ({ browser }) => {
  const ops = await signedInPage(browser, 'Olu Oncall', OPS_EMAIL);
  await ops.route('**/api/ops/panel', (route) => route.abort('failed'));
  await ops.goto('/operations/panel');
  const failed = ops.getByRole('alert').filter({ hasText: 'Could not load the lender panel' });
  await expect(failed).toBeVisible({ timeout: 20_000 });
  await expect(failed).toContainText('The server could not be reached');
  await ops.unroute('**/api/ops/panel');
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(ops.getByRole('region', { name: 'Active version' })).toBeVisible();

  const borrower = await newUser(browser, 'Bo Borrower');
  await borrower.page.goto('/operations/panel');
  await expect(borrower.page.getByText('Operations access only')).toBeVisible();
  await expect(borrower.page.getByRole('heading', { name: 'Lender panel', level: 1 })).toBeVisible();
});
