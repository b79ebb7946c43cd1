import { expect, test } from '@playwright/test';
import { fulfillDeclared } from './support/api-mocks';
import { TEST_USER, expectNoAxeViolations, screenshotBothWidths, signInAs } from './support/shell-helpers';

test.describe('shell host', () => {
  test('renders the layout and the search remote on the home page', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'LoanSearch UK home' })).toBeVisible();
    await expect(page.getByText('Secure & Trusted')).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'Services' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'Support' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'Legal' })).toBeVisible();
    // The search remote's own content, loaded at runtime from its manifest.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('remote-fallback')).toHaveCount(0);
    await screenshotBothWidths(page, 'home');
  });

  test('renders the dashboard remote for a signed-in user, with the header greeting', async ({ page }) => {
    await signInAs(page);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Welcome back, Alex' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${TEST_USER.name}`);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start New Search' })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'dashboard');
  });

  test('at 375 px the signed-in header keeps Secure & Trusted and the welcome, inside the screen', async ({
    page,
  }) => {
    await signInAs(page);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/dashboard');
    const header = page.getByRole('banner');
    const inside = async (text: string) => {
      const item = header.getByText(text);
      await expect(item).toBeVisible();
      const box = (await item.boundingBox())!;
      expect(box.width, `${text} is not squeezed away`).toBeGreaterThan(20);
      expect(box.x + box.width, `${text} ends inside the screen`).toBeLessThanOrEqual(375);
    };
    await inside('Secure & Trusted');
    await inside(`Welcome, ${TEST_USER.name}`);
    await expect(header.getByRole('link', { name: 'Dashboard' })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test('serves /favicon.ico and every page links to it', async ({ page }) => {
    const icon = await page.request.get('/favicon.ico');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/icon/);
    expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    await page.goto('/login');
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /favicon\.ico$/);
  });

  test('sends a signed-out visitor from the dashboard to login with next', async ({ page }) => {
    await page.route('**/api/auth/me', (route) =>
      fulfillDeclared(route, 401, { success: false, error: 'Not signed in' }),
    );
    await page.goto('/dashboard?tab=dips');
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%3Ftab%3Ddips$/);
    await expect(page.getByText('Shared Deal Access Required')).toBeVisible();
  });

  test('shows a fallback with Retry when a remote is down, and recovers on Retry', async ({ page }) => {
    let down = true;
    await page.route('**/mf/search/**', (route) =>
      down
        ? route.fulfill({ status: 502, contentType: 'application/json', body: '{"error":"down"}' })
        : route.fallback(),
    );
    await page.goto('/');
    const fallback = page.getByTestId('remote-fallback');
    await expect(fallback).toBeVisible();
    await expect(fallback).toContainText('could not be loaded');
    // The page around it is still there: never a blank page.
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'remote-fallback');

    down = false;
    await fallback.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('remote-fallback')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('shows the fallback for a dashboard page when the dashboard remote is down', async ({ page }) => {
    await page.route('**/mf/dashboard/**', (route) => route.abort('connectionrefused'));
    await signInAs(page);
    await page.goto('/shared-with-me');
    await expect(page.getByTestId('remote-fallback')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  test('shows the 404 page for an unknown path', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'not-found');
  });

  test('shows the back-to-top button after half a window of scrolling and scrolls up smoothly', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { name: 'Privacy policy' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back to top' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 190));
    await expect(page.getByRole('button', { name: 'Back to top' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.getByRole('button', { name: 'Back to top' })).toBeVisible();
    await page.getByRole('button', { name: 'Back to top' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('can be used with the keyboard alone: skip link, header links', async ({ page }) => {
    await page.goto('/login');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email address')).toBeFocused();
  });
});
