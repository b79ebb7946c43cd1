// A session used every day never ended (7-day sliding expiry renewed on every
// request, cookie re-issued by /api/auth/me). Now: an absolute end the sliding never passes, sign out
// everywhere, and every session ends when the password changes. Through the real gateway.
import {
  PASSWORD_MESSAGES,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  type SessionRecord,
  sessionKey,
} from '@lsp/contracts';
import { type CookieClient, useHarness } from '@lsp/testing';
import { registerVerified, signedInBrowser, startIdentityStack } from './harness';

const PASSWORD = 'correct horse battery';
const ABSOLUTE_SECONDS = 3600;

jest.setTimeout(60_000);

/** The session id inside the signed `sid` cookie (`<id>.<signature>`). */
const sessionIdOf = (browser: CookieClient) => {
  const raw = decodeURIComponent(browser.cookie(SESSION_COOKIE) ?? '');
  return raw.slice(0, raw.lastIndexOf('.'));
};

describe('session lifetime', () => {
  const stack = useHarness(() =>
    startIdentityStack({ env: { SESSION_ABSOLUTE_LIFETIME_SECONDS: String(ABSOLUTE_SECONDS) } }),
  );
  let counter = 0;
  const newEmail = () => `lifetime${++counter}.${Date.now()}@example.com`;

  async function account() {
    const email = newEmail();
    await registerVerified(stack, { name: 'Grace Hopper', email, password: PASSWORD });
    return email;
  }

  const signedIn = (email: string, password = PASSWORD) => signedInBrowser(stack, email, password);

  const redis = () => stack.redis.redis;

  describe('absolute lifetime', () => {
    it('stores the absolute end with the session, and neither the Redis record nor the cookie outlives it', async () => {
      const email = await account();
      const browser = await signedIn(email);
      const key = sessionKey(sessionIdOf(browser));
      const record = JSON.parse((await redis().get(key)) as string) as SessionRecord;
      const end = Date.parse(record.expiresAt as string);
      expect(end - Date.parse(record.createdAt)).toBe(ABSOLUTE_SECONDS * 1000);

      // Used again and again: the gateway slides the record, but never past the absolute end.
      for (let i = 0; i < 3; i++) {
        const me = await browser.get('/api/auth/me');
        expect(me.status).toBe(200);
        const cookie = me.setCookies.find((c) => c.name === SESSION_COOKIE);
        expect(Number(cookie?.attributes['max-age'])).toBeLessThanOrEqual(ABSOLUTE_SECONDS);
        expect(Number(cookie?.attributes['max-age'])).toBeGreaterThan(ABSOLUTE_SECONDS - 60);
      }
      const ttl = await redis().ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(ABSOLUTE_SECONDS);
    });

    it('ends a session past its absolute end even while it is in use, and deletes it', async () => {
      const email = await account();
      const browser = await signedIn(email);
      const key = sessionKey(sessionIdOf(browser));
      const record = JSON.parse((await redis().get(key)) as string) as SessionRecord;
      // As if it had been used every day since it began, 31 days ago: the idle expiry is still far off.
      const past: SessionRecord = {
        ...record,
        createdAt: new Date(Date.now() - 31 * 86_400_000).toISOString(),
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      };
      await redis().set(key, JSON.stringify(past), 'EX', SESSION_TTL_SECONDS);
      const me = await browser.get('/api/auth/me');
      expect(me.status).toBe(401);
      expect(await redis().exists(key)).toBe(0);
    });

    it('ends a session written before the absolute end was stored 30 days after it began', async () => {
      const email = await account();
      const browser = await signedIn(email);
      const key = sessionKey(sessionIdOf(browser));
      const { expiresAt: _dropped, ...record } = JSON.parse(
        (await redis().get(key)) as string,
      ) as SessionRecord;
      await redis().set(
        key,
        JSON.stringify({ ...record, createdAt: new Date(Date.now() - 30 * 86_400_000 - 1000).toISOString() }),
        'EX',
        SESSION_TTL_SECONDS,
      );
      expect((await browser.get('/api/auth/me')).status).toBe(401);
    });
  });

  describe('POST /api/auth/logout-all', () => {
    it("ends every one of the user's sessions, not another user's", async () => {
      const email = await account();
      const laptop = await signedIn(email);
      const phone = await signedIn(email);
      const other = await signedIn(await account());

      const res = await laptop.post('/api/auth/logout-all');
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ success: true, message: PASSWORD_MESSAGES.signedOutEverywhere });
      expect(laptop.cookie(SESSION_COOKIE)).toBeUndefined();
      expect((await phone.get('/api/auth/me')).status).toBe(401);
      expect((await other.get('/api/auth/me')).status).toBe(200);
    });

    it('needs a session', async () => {
      expect((await stack.browser().post('/api/auth/logout-all')).status).toBe(401);
    });
  });

  describe('password changes end every session', () => {
    it('a change with the current password ends the other sessions and gives this browser a fresh one', async () => {
      const email = await account();
      const laptop = await signedIn(email);
      const phone = await signedIn(email);
      const before = laptop.cookie(SESSION_COOKIE);

      const wrong = await laptop.post('/api/auth/change-password', {
        currentPassword: 'not my password',
        password: 'a brand new password',
        confirmPassword: 'a brand new password',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.json().error).toBe(PASSWORD_MESSAGES.currentPasswordWrong);
      expect((await phone.get('/api/auth/me')).status).toBe(200);

      const res = await laptop.post('/api/auth/change-password', {
        currentPassword: PASSWORD,
        password: 'a brand new password',
        confirmPassword: 'a brand new password',
      });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ success: true, message: PASSWORD_MESSAGES.changed });
      expect((await phone.get('/api/auth/me')).status).toBe(401);
      expect(laptop.cookie(SESSION_COOKIE)).not.toBe(before);
      expect((await laptop.get('/api/auth/me')).status).toBe(200);

      expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).status).toBe(401);
      expect(
        (await stack.browser().post('/api/login', { email, password: 'a brand new password' })).status,
      ).toBe(200);
      const changed = (await stack.events('identity.password.changed')).filter((e) => e.data.email === email);
      expect(changed.map((e) => e.data.how)).toEqual(['change']);
    });

    it('the new password follows the registration rules', async () => {
      const browser = await signedIn(await account());
      const res = await browser.post('/api/auth/change-password', {
        currentPassword: PASSWORD,
        password: 'short',
        confirmPassword: 'short',
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Password must be at least 8 characters');
    });
  });
});
