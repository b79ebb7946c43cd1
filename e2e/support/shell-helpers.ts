import AxeBuilder from '@axe-core/playwright';
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fulfillDeclared, mockDeclared } from './api-mocks';

export const TEST_USER = {
  id: 'u-e2e-1',
  name: 'Alex Morgan',
  email: 'alex.morgan@example.com',
  verified: true,
};

/**
 * Makes the session check answer as a signed-in user, whatever the server knows; the dashboard's
 * lists answer empty (the server would refuse them, and a refused list sends the browser to login).
 */
export async function signInAs(page: Page, user = TEST_USER) {
  await mockDeclared(page, '**/api/auth/me', 200, { user });
  await answerDashboardListsEmpty(page, user.id);
}

/**
 * The session check answers signed out until the sign-in call, which answers as `user` and signs them
 * in; `forgetSignIn()` makes it answer signed out again until the next sign-in.
 */
export async function signInOnLogin(page: Page, user: typeof TEST_USER) {
  let signedIn = false;
  await page.route('**/api/auth/me', (route) =>
    signedIn
      ? fulfillDeclared(route, 200, { user })
      : fulfillDeclared(route, 401, { success: false, error: 'Not signed in' }),
  );
  await page.route('**/api/login', (route) => {
    signedIn = true;
    return fulfillDeclared(route, 200, { success: true, user });
  });
  return {
    forgetSignIn: () => {
      signedIn = false;
    },
  };
}

/**
 * The dashboard's five list calls answer empty, and its alert setting as a new user's (on), as the
 * services would for a user the server does not know.
 */
export async function answerDashboardListsEmpty(page: Page, userId: string) {
  await mockDeclared(page, `**/api/user-searches/${userId}`, 200, []);
  await mockDeclared(page, `**/api/applications/${userId}`, 200, { success: true, applications: [] });
  await mockDeclared(page, `**/api/online-dip/user/${userId}`, 200, { success: true, dips: [] });
  await mockDeclared(page, '**/api/shared', 200, { success: true, items: [] });
  await mockDeclared(page, '**/api/shared/unread-count', 200, { success: true, count: 0 });
  await mockDeclared(page, '**/api/alerts/settings', 200, { repricingAlerts: true });
}

/**
 * Fails when axe finds any WCAG 2.1 A/AA violation on the page as it stands, once its finite
 * animations have ended: a toast fading in is half transparent for 0.2 s, and axe would measure the
 * contrast of that moment rather than of what a person reads.
 */
export async function expectNoAxeViolations(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}

const SCREENSHOTS = path.resolve(__dirname, '../../test-results/screenshots');

/** The window sizes the pages are checked at: a desktop's and a phone's. */
export const BOTH_WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/** Full-page screenshots at desktop and phone widths, for a person to look at. */
export async function screenshotBothWidths(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const size of BOTH_WIDTHS) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * Nothing in the page's content (the shell's <main>, where these pages render) wider than the window
 * at 375 px; a failure names the elements that stick out. The shell's header is the shell's own test.
 */
export async function expectNoOverflowAt375(page: Page, what = 'the page') {
  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const main = document.querySelector('main');
    if (!main) return ['no <main>'];
    // Inside a box that scrolls or clips sideways (the dashboard's tab strip) is not page overflow.
    const clipped = (el: Element) => {
      for (let box = el.parentElement; box && box !== main; box = box.parentElement)
        if (getComputedStyle(box).overflowX !== 'visible') return true;
      return false;
    };
    const wide = Array.from(main.querySelectorAll('*'))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !clipped(el))
      .slice(0, 10)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)} px)`,
      );
    if (wide.length === 0 && main.scrollWidth > main.clientWidth + 0.5)
      wide.push(`main: scrollWidth ${main.scrollWidth}, clientWidth ${main.clientWidth}`);
    return wide;
  });
  expect(overflow, `sticking out of ${what} at 375 px`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * Moves the keyboard focus with Tab (Shift+Tab when `backwards`) until `target` has it, as a
 * keyboard-only user would; fails when it is not reached within `limit` presses.
 */
export async function tabTo(page: Page, target: Locator, limit = 20, backwards = false) {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  await expect(target, `reached with ${limit} presses of Tab`).toBeFocused();
}
