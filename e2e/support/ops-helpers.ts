// Signing in for the operations pages' tests: the one address the e2e stack lists in OPS_EMAILS
// (e2e/support/global-setup.ts), registered on first use and signed in on later ones.
import { expect } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';
import { registerVerifyAndSignIn } from './mail-helpers';

export const OPS_EMAIL = 'oncall@ops.example';
const PASSWORD = 'correct-horse-42';

/** A page of a new browser context, signed in as `email` (registered and verified if it is new). */
export async function signedInPage(browser: Browser, name: string, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  try {
    await registerVerifyAndSignIn(page.request, { name, email, password: PASSWORD });
  } catch {
    // Already registered by an earlier test of this run: signing in is enough.
    const login = await page.request.post('/api/login', { data: { email, password: PASSWORD } });
    expect(login.ok()).toBe(true);
  }
  return page;
}
