// On the online DIP page (/dip/{slug}), with the API answered in the page:
// Download PDF shows its progress while a first PDF renders and a clear Try again when it could not be
// had; the page prints on one A4 page without the site's header, footer or buttons; money and dates
// read as the one en-GB helper writes them. At 1280 and 375 px, with axe.
import { expect, test } from '@playwright/test';
import type { Page, Route } from '@playwright/test';
import { fulfillDeclared } from './support/api-mocks';
import { slowFirstPdf } from './support/dip-helpers';
import { BOTH_WIDTHS, expectNoAxeViolations, expectNoOverflowAt375 } from './support/shell-helpers';

const USER = { id: 'u-dip-print', name: 'Olivia Owner', email: 'olivia.owner@example.com', verified: true };
const SLUG = 'Xq7dT0pPrintSlug00000A';

const VIEW = {
  success: true,
  quoteCode: 'HK4M7PQR',
  // 23:30 UTC on 30 June is 1 July in the UK: the helper writes UK dates wherever it runs.
  generatedOn: '2026-06-30T23:30:00.000Z',
  expiresAt: '2026-07-02T23:30:00.000Z',
  productType: 'Commercial mortgage',
  regulated: false,
  borrowerSalutation: 'Ms',
  borrowerName: 'Olivia Owner',
  projectCity: 'Leeds',
  validityHours: 48,
  promoEligibleZeroBrokerFee: true,
  lenderName: 'Northgate Bank',
  // The owner's view says whether a panel change has touched the DIP's product since: not here.
  productChange: null,
  loan: {
    netLoan: 176000,
    monthlyPayment: 1080.5,
    interestRatePct: 7.2,
    arrangementFeePct: 2,
    depositRequired: 70000,
    ltvPct: 72,
    mortgageTermYears: 25,
  },
  project: {
    location: 'Leeds',
    propertyType: 'Office',
    propertyValue: 250000,
    ownerOccupied: false,
    borrowingEntity: 'Company',
    mortgageTermYears: 25,
  },
};

async function openDipPage(page: Page, pdf: (route: Route) => Promise<void>) {
  await page.route('**/api/auth/me', (route) => fulfillDeclared(route, 200, { user: USER }));
  await page.route(`**/api/online-dip/${SLUG}`, (route) => fulfillDeclared(route, 200, VIEW));
  await page.route('**/api/online-dip/pdf/**', pdf);
  await page.goto(`/dip/${SLUG}`);
  await expect(page.getByRole('heading', { name: 'Indicative Terms – DIP' })).toBeVisible();
}

const pdfBody = '%PDF-1.4\n% test\n';

test.describe('the online DIP page', () => {
  test('a first PDF shows its progress, and a PDF that cannot be had offers Try again', async ({ page }) => {
    // First click: two answers of 503. Second click: held until the test has seen the progress
    // state, then the PDF.
    const pdf = slowFirstPdf();
    await openDipPage(page, pdf.answer);
    const header = page.locator('header.dash-header');
    await header.getByRole('button', { name: 'Download PDF' }).click();
    await expect(page.getByText("The PDF isn't ready yet or could not be downloaded.")).toBeVisible();
    expect(pdf.asked()).toBe(2);
    await expect(page.getByText('Download Error', { exact: true })).toBeVisible();
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
      await expectNoAxeViolations(page);
    }
    await expectNoOverflowAt375(page, 'the online DIP page with Try again');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Try again' }).click();
    const working = header.getByRole('button', { name: 'Preparing PDF…' });
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(working).toBeDisabled();
      await expect(working).toHaveAttribute('aria-busy', 'true');
      await expect(
        page.getByRole('status').filter({ hasText: 'The first download of a DIP can take a few seconds.' }),
      ).toBeVisible();
      await expectNoAxeViolations(page);
    }
    pdf.release();
    expect((await download).suggestedFilename()).toBe('DIP-HK4M7PQR.pdf');
    await expect(header.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
    await expect(page.getByText("The PDF isn't ready yet or could not be downloaded.")).toHaveCount(0);
  });

  test('money and dates through the en-GB helper; the page prints on one A4 page, terms only', async ({
    page,
  }) => {
    await openDipPage(page, (route) =>
      route.fulfill({ status: 200, contentType: 'application/pdf', body: pdfBody }),
    );
    for (const size of BOTH_WIDTHS) {
      await page.setViewportSize(size);
      await expect(page.getByText('Generated on 01/07/2026')).toBeVisible();
      await expect(page.getByText('£1,080.50')).toBeVisible();
      await expect(page.getByText('£176,000')).toBeVisible();
      await expectNoAxeViolations(page);
    }
    await page.setViewportSize(BOTH_WIDTHS[0]);

    await page.emulateMedia({ media: 'print' });
    for (const chrome of ['header.shell-header', 'footer.shell-footer'])
      await expect(page.locator(chrome)).toBeHidden();
    for (const name of ['Copy Quote Code', 'Back', 'Download PDF'])
      await expect(page.getByRole('button', { name })).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Indicative Terms – DIP' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Loan Details' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Project Details' })).toBeVisible();
    await expect(page.getByText(/indicative and non-binding/)).toBeVisible();
    // The two cards side by side on paper.
    const loan = await page.getByRole('heading', { name: 'Loan Details' }).boundingBox();
    const project = await page.getByRole('heading', { name: 'Project Details' }).boundingBox();
    expect(Math.abs((loan?.y ?? 0) - (project?.y ?? 1000))).toBeLessThan(2);

    // Printed to A4 by Chromium itself: one page.
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: false });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages.length).toBe(1);
    await page.emulateMedia({ media: 'screen' });
    await expect(page.locator('header.shell-header')).toBeVisible();
  });
});
