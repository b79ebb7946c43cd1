// The notifications service's mail catcher, read by the browser tests that follow an email (needs
// the full stack with MAIL_CATCHER_ENABLED=true, as global-setup starts it).
import type { APIRequestContext, Browser, Page } from '@playwright/test';

export interface CaughtMail {
  to: string | string[];
  subject: string;
  text?: string;
  links?: string[];
}

/**
 * Where caught mail is listed: E2E_MAIL_URL, the gateway's /dev/mail (when it routes it), or the
 * notifications service itself on its port (default offset as the test set-up starts the stack).
 */
function mailUrls(): string[] {
  if (process.env.E2E_MAIL_URL) return [process.env.E2E_MAIL_URL];
  const offset = Number(process.env.E2E_PORT_OFFSET ?? 10000);
  return [
    `${process.env.E2E_BASE_URL}/dev/mail/messages`,
    `http://127.0.0.1:${4005 + offset}/dev/mail/messages`,
  ];
}

export async function caughtMail(): Promise<{ messages: CaughtMail[] } | string> {
  const problems: string[] = [];
  for (const url of mailUrls()) {
    try {
      const res = await fetch(url);
      const body = (await res.json().catch(() => null)) as { messages?: CaughtMail[] } | null;
      if (res.ok && Array.isArray(body?.messages)) return { messages: body.messages };
      problems.push(`${url}: ${res.status}`);
    } catch (err) {
      problems.push(`${url}: ${(err as Error).message}`);
    }
  }
  return `${problems.join('; ')} (is MAIL_CATCHER_ENABLED=true set for the stack?)`;
}

/** Waits for a mail to `email` and returns the first link `pick` accepts. */
export async function linkInMailTo(
  email: string,
  pick: (href: string) => boolean,
  what = 'the expected link',
): Promise<string> {
  const deadline = Date.now() + 30_000;
  let last = '';
  while (Date.now() < deadline) {
    const caught = await caughtMail();
    if (typeof caught === 'string') last = caught;
    else {
      const mails = caught.messages.filter((m) =>
        JSON.stringify(m.to).toLowerCase().includes(email.toLowerCase()),
      );
      for (const mail of mails) {
        const link =
          mail.links?.find(pick) ?? mail.text?.match(/https?:\/\/\S+/g)?.find((href) => pick(href));
        if (link) return link;
      }
      last = `${caught.messages.length} messages, none with ${what} for ${email}`;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`No mail with ${what} for ${email}: ${last}`);
}

export const verificationLinkFor = (email: string) =>
  linkInMailTo(email, (href) => href.includes('/verify-email'), 'a verification link');

/** Registers, verifies through the emailed link and signs in (the request shares the page's cookies). */
export async function registerVerifyAndSignIn(
  request: APIRequestContext,
  account: { name: string; email: string; password: string },
): Promise<{ id: string }> {
  const registered = await request.post('/api/auth/register', {
    data: { ...account, confirmPassword: account.password },
  });
  if (!registered.ok()) throw new Error(`register: ${registered.status()} ${await registered.text()}`);
  const token = new URL(await verificationLinkFor(account.email)).searchParams.get('token');
  const verified = await request.get(`/api/verify-email?token=${token}`);
  if (!verified.ok()) throw new Error(`verify: ${verified.status()} ${await verified.text()}`);
  const login = await request.post('/api/login', {
    data: { email: account.email, password: account.password },
  });
  if (!login.ok()) throw new Error(`login: ${login.status()} ${await login.text()}`);
  const me = (await (await request.get('/api/auth/me')).json()) as { user: { id: string } };
  return me.user;
}

/**
 * A verified, signed-in user in a browser context of their own (with clipboard access, for Copy Link),
 * named `name`, with a fresh email made from the first name.
 */
export async function newUser(
  browser: Browser,
  name: string,
): Promise<{ page: Page; id: string; email: string }> {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const email = `${name.split(' ')[0].toLowerCase()}-${Date.now()}@example.com`;
  const { id } = await registerVerifyAndSignIn(page.request, { name, email, password: 'correct-horse-42' });
  return { page, id, email };
}
