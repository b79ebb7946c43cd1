// What the DIP browser tests do again and again: an owner with a DIP, its item in the DIPs tab, the
// link menu, a real PDF download, the expiry run out on the server's clock, and (with the API answered
// in the page) a first PDF that takes a while to render.
import { expect } from '@playwright/test';
import type { Browser, Locator, Page, Route } from '@playwright/test';
import { fulfillDeclared } from './api-mocks';
import { newUser } from './mail-helpers';
import { searchAndCreateDip } from './search-helpers';
import { readFileSync } from 'node:fs';

/** The path and query of a link, to open it on the system under test. */
export const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

/**
 * A new verified user named `name`, signed in, with a saved development search for `projectName`
 * (in `location`, London unless said) and a DIP from its first offer.
 */
export async function ownerWithDip(browser: Browser, name: string, projectName: string, location?: string) {
  const owner = await newUser(browser, name);
  const dip = await searchAndCreateDip(owner.page, owner.id, projectName, location);
  return { owner, page: owner.page, dip };
}

/** Opens the owner's DIPs tab; returns the DIP's item in it. */
export async function openDipItem(page: Page, dipId: string): Promise<Locator> {
  await page.goto('/dashboard?tab=dips');
  return page.locator(`[data-dip-id="${dipId}"]`);
}

/** Regenerate Link from the DIP item's link menu, and the toast that says the old link is gone. */
export async function regenerateLinkFromMenu(page: Page, item: Locator, quoteCode: string) {
  await item.getByRole('button', { name: `More actions for ${quoteCode}` }).click();
  await page.getByRole('menuitem', { name: 'Regenerate Link' }).click();
  await expect(page.getByText('Previous link is now invalid')).toBeVisible();
}

/** `click` downloads the DIP's real PDF, named by its quote code. */
export async function expectPdfDownload(page: Page, click: () => Promise<void>, quoteCode: string) {
  const downloading = page.waitForEvent('download');
  await click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`DIP-${quoteCode}.pdf`);
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
}

/**
 * Runs the DIP's validity out on the server: the running stack has no test clock, so the owner's own
 * Set Expiry call moves the expiry 3 s ahead, and this waits for the server's real clock to pass it.
 */
export async function letDipExpire(page: Page, dipId: string) {
  const expiry = await page.request.post(`/api/online-dip/${dipId}/expiry`, {
    data: { expiresAt: new Date(Date.now() + 3_000).toISOString() },
  });
  expect(expiry.ok()).toBe(true);
  const { expiresAt } = (await expiry.json()) as { expiresAt: string };
  await page.waitForTimeout(Math.max(0, new Date(expiresAt).getTime() - Date.now()) + 1_000);
}

/** The owner's modal of an expired DIP: its terms, the Expired badge (not 'DIP Expired'), no PDF. */
export async function expectExpiredOwnerModal(modal: Locator) {
  await expect(modal.getByRole('heading', { name: 'Loan Details' })).toBeVisible();
  await expect(modal.getByText('Expired', { exact: true })).toBeVisible();
  await expect(modal.getByText('DIP Expired')).toHaveCount(0);
  await expect(modal.getByRole('button', { name: 'Download PDF' })).toBeDisabled();
}

/**
 * A mocked PDF route for a first PDF that takes a while: the first two requests answer 503 (the
 * service's wait for the render ran out twice), the third is held until `release()`, then answered
 * with a PDF. `asked()` counts the requests so far.
 */
export function slowFirstPdf() {
  let asked = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    asked: () => asked,
    release: () => release(),
    async answer(route: Route) {
      asked += 1;
      if (asked <= 2)
        return fulfillDeclared(route, 503, {
          success: false,
          error: 'The PDF is being prepared. Please try again in a moment.',
          title: 'PDF Generation Failed',
        });
      await gate;
      await route.fulfill({ status: 200, contentType: 'application/pdf', body: '%PDF-1.4\n' });
    },
  };
}
