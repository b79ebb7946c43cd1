import { type Page, expect, test } from '@playwright/test';
import { mockSearchApi, startDevelopmentSearch, waitForResults } from './support/search-helpers';
import { signInAs } from './support/shell-helpers';

// Pages render under the gateway's Content-Security-Policy, which allows no inline style: the
// frontends' CSS arrives as .css files (the remotes' too, linked when their chunks load) and nothing
// adds a <style> element at runtime. Any style violation the browser reports fails the test. (zod's
// probe for eval, `new Function('')` in a try, is reported as a script-src violation and is not
// about styles: it is left out here.)

declare global {
  interface Window {
    cspViolations: string[];
  }
}

async function watchViolations(page: Page): Promise<string[]> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy/i.test(text) && /style/i.test(text)) consoleErrors.push(text);
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      if (event.violatedDirective.startsWith('style-src'))
        window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  return consoleErrors;
}

async function expectStyledByFilesAlone(page: Page, remote: 'search' | 'dashboard') {
  const sheets = await page.evaluate(() => ({
    links: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
      (link) => new URL(link.href).pathname,
    ),
    loaded: [...document.styleSheets].map((sheet) => (sheet.href ? sheet.cssRules.length : -1)),
    styleElements: document.querySelectorAll('style').length,
  }));
  expect(sheets.styleElements).toBe(0);
  expect(sheets.links.some((href) => /^\/[^/]+\.css$/.test(href))).toBe(true);
  expect(sheets.links.some((href) => href.startsWith(`/mf/${remote}/`) && href.endsWith('.css'))).toBe(true);
  // Every linked sheet was fetched and parsed.
  expect(sheets.loaded.every((rules) => rules > 0)).toBe(true);
  expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
}

test.describe('the Content-Security-Policy', () => {
  test("allows no inline style, and the home page and a signed-in search's results render under it", async ({
    page,
  }) => {
    // A page load and a search on a stack just started, on a busy 2-core machine.
    test.setTimeout(150_000);
    const consoleErrors = await watchViolations(page);
    await mockSearchApi(page, { signedIn: true });
    const response = await page.goto('/');
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/style-src 'self'( 'nonce-[^']+')?(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    // The first page of a stack just started: generous, as on a busy 2-core machine.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expectStyledByFilesAlone(page, 'search');

    await startDevelopmentSearch(page);
    await waitForResults(page);
    await expectStyledByFilesAlone(page, 'search');
    expect(consoleErrors).toEqual([]);
  });

  test('the sign-in page and a signed-in dashboard render under it', async ({ page }) => {
    const consoleErrors = await watchViolations(page);
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);

    await signInAs(page);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: /^Welcome back/ })).toBeVisible({ timeout: 30_000 });
    await expectStyledByFilesAlone(page, 'dashboard');
    expect(consoleErrors).toEqual([]);
  });

  test("the API documentation's own <style> passes by the answer's nonce", async ({ page }) => {
    const consoleErrors = await watchViolations(page);
    await page.goto('/api/docs');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Its stylesheet applied: the body's width is capped by the page's own rule.
    expect(await page.evaluate(() => getComputedStyle(document.body).maxWidth)).toBe('1100px');
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
