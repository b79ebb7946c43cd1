// Password reset by email (single-use hashed token, short expiry,
// the same answer for unknown emails, rate limited, every session ended), password change, and
// scrypt hashes weaker than today's replaced at sign-in. Through the real gateway.
import { IDENTITY_MESSAGES, PASSWORD_MESSAGES, SESSION_COOKIE, sessionKey } from '@lsp/contracts';
import { type CookieClient, useHarness } from '@lsp/testing';
import { DEVICE_COOKIE } from '../src/http/device-cookie';
import { INVALID_CREDENTIALS } from '../src/use-cases/sign-in';
import { hashParams, hashPassword } from '../src/domain/passwords';
import { hashToken } from '../src/domain/tokens';
import { latestResetToken, registerVerified, signedInBrowser, startIdentityStack } from './harness';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a much better passphrase';

jest.setTimeout(60_000);

describe('password reset through the gateway', () => {
  // Every request of the suite comes from one address: its own limit has its own suite below.
  const stack = useHarness(() => startIdentityStack({ env: { PASSWORD_RESET_MAX_PER_HOUR_PER_IP: '1000' } }));
  let counter = 0;
  const newEmail = () => `reset${++counter}.${Date.now()}@example.com`;
  const redis = () => stack.redis.redis;

  async function account(email = newEmail()) {
    await registerVerified(stack, { name: 'Ada Lovelace', email, password: PASSWORD });
    return email;
  }

  const signedIn = (email: string, password = PASSWORD) => signedInBrowser(stack, email, password);

  /** Sets NEW_PASSWORD, typed twice, with a reset link's token; from a browser with no session unless given. */
  const resetToNewPassword = (token: string, browser = stack.browser()) =>
    browser.post('/api/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });

  /** Changes `browser`'s password to NEW_PASSWORD, typed twice, giving `currentPassword`. */
  const changeToNewPassword = (browser: CookieClient, currentPassword: string) =>
    browser.post('/api/auth/change-password', {
      currentPassword,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });

  const resetEvents = async (email: string) =>
    (await stack.events('identity.password-reset.requested')).filter((e) => e.data.email === email);

  /** Lets the next request for any address through the one-per-interval rule. */
  const clearRecent = async () => {
    const keys = await redis().keys('password-reset:recent:*');
    if (keys.length) await redis().del(...keys);
  };

  describe('POST /api/auth/forgot-password', () => {
    it('answers a known and an unknown address alike, and emails only the known one', async () => {
      const known = await account();
      const unknown = newEmail();

      const toUnknown = await stack.browser().post('/api/auth/forgot-password', { email: unknown });
      const toKnown = await stack.browser().post('/api/auth/forgot-password', { email: known.toUpperCase() });
      expect(toKnown.status).toBe(200);
      expect(toUnknown.status).toBe(toKnown.status);
      expect(toKnown.json()).toEqual({ success: true, message: PASSWORD_MESSAGES.resetRequested });
      expect(toUnknown.text).toBe(toKnown.text);

      const token = await latestResetToken(stack, known);
      const [event] = await resetEvents(known);
      expect(event.data).toMatchObject({ email: known, name: 'Ada Lovelace' });
      expect(event.data.resetUrl).toBe(`http://localhost:8080/reset-password?token=${token}`);
      const ttl = Date.parse(event.data.expiresAt) - Date.now();
      expect(ttl).toBeGreaterThan(29 * 60_000);
      expect(ttl).toBeLessThanOrEqual(30 * 60_000);

      // Only the sha-256 of the token is stored.
      const user = await stack.users.findOne({ email: known }).lean();
      expect(user?.passwordResetToken).toBe(hashToken(token));
      expect(JSON.stringify(user)).not.toContain(token);

      // The unknown address asked first: its work is long done, and it wrote nothing.
      expect(await resetEvents(unknown)).toEqual([]);
      expect(await stack.users.countDocuments({ email: unknown })).toBe(0);
    });

    it('validates the address with the form messages', async () => {
      const empty = await stack.browser().post('/api/auth/forgot-password', { email: '' });
      expect(empty.status).toBe(400);
      expect(empty.json().error).toBe(IDENTITY_MESSAGES.loginEmailRequired);
      const bad = await stack.browser().post('/api/auth/forgot-password', { email: 'not-an-email' });
      expect(bad.status).toBe(400);
      expect(bad.json().error).toBe(IDENTITY_MESSAGES.invalidEmail);
    });

    it('refuses a second request for one address within the interval, known or not, with Retry-After', async () => {
      await clearRecent();
      for (const email of [await account(), newEmail()]) {
        expect((await stack.browser().post('/api/auth/forgot-password', { email })).status).toBe(200);
        const again = await stack.browser().post('/api/auth/forgot-password', { email });
        expect(again.status).toBe(429);
        expect(again.json().error).toBe(PASSWORD_MESSAGES.resetTooSoon);
        expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    it('allows at most five requests an hour for one address', async () => {
      const email = newEmail();
      for (let i = 0; i < 5; i++) {
        await clearRecent();
        expect((await stack.browser().post('/api/auth/forgot-password', { email })).status).toBe(200);
      }
      await clearRecent();
      const sixth = await stack.browser().post('/api/auth/forgot-password', { email });
      expect(sixth.status).toBe(429);
      expect(sixth.json().error).toBe(PASSWORD_MESSAGES.resetTooMany);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3000);
    });
  });

  describe('POST /api/auth/reset-password', () => {
    async function resetLink(email: string) {
      await clearRecent();
      const before = (await resetEvents(email)).length;
      expect((await stack.browser().post('/api/auth/forgot-password', { email })).status).toBe(200);
      return latestResetToken(stack, email, before);
    }

    it('sets the new password, ends every session, and works only once', async () => {
      const email = await account();
      const laptop = await signedIn(email);
      const phone = await signedIn(email);
      const token = await resetLink(email);

      const browser = stack.browser();
      const res = await resetToNewPassword(token, browser);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ success: true, message: PASSWORD_MESSAGES.resetDone });
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();

      expect((await laptop.get('/api/auth/me')).status).toBe(401);
      expect((await phone.get('/api/auth/me')).status).toBe(401);
      expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).json().error).toBe(
        INVALID_CREDENTIALS,
      );
      await signedIn(email, NEW_PASSWORD);

      const again = await stack.browser().post('/api/auth/reset-password', {
        token,
        password: 'yet another password',
        confirmPassword: 'yet another password',
      });
      expect(again.status).toBe(400);
      expect(again.json().error).toBe(PASSWORD_MESSAGES.resetInvalid);
      await signedIn(email, NEW_PASSWORD);

      const user = await stack.users.findOne({ email }).lean();
      expect(user?.passwordResetToken).toBeNull();
      expect(user?.passwordChangedAt).toBeInstanceOf(Date);
      const changed = (await stack.events('identity.password.changed')).filter((e) => e.data.email === email);
      expect(changed.map((e) => e.data.how)).toEqual(['reset']);
      expect(changed[0].data).toMatchObject({ userId: user?._id.toString(), name: 'Ada Lovelace' });
    });

    it('ends the session this browser held for another account, whose password stays', async () => {
      const email = await account();
      const other = await account();
      const browser = await signedIn(other);
      const signed = decodeURIComponent(browser.cookie(SESSION_COOKIE) as string);
      const key = sessionKey(signed.slice(0, signed.lastIndexOf('.')));
      expect(await redis().exists(key)).toBe(1);
      const token = await resetLink(email);
      const res = await resetToNewPassword(token, browser);
      expect(res.status).toBe(200);
      expect(await redis().exists(key)).toBe(0);
      expect((await browser.get('/api/auth/me')).status).toBe(401);
      await signedIn(other, PASSWORD);
    });

    it('refuses an expired link, which then still cannot be used', async () => {
      const email = await account();
      const token = await resetLink(email);
      await stack.users.updateOne(
        { email },
        { $set: { passwordResetExpiresAt: new Date(Date.now() - 1000) } },
      );
      const res = await resetToNewPassword(token);
      expect(res.status).toBe(400);
      expect(res.json().error).toBe(PASSWORD_MESSAGES.resetInvalid);
      await signedIn(email, PASSWORD);
    });

    it('refuses a link once the clock passes its lifetime, and the clock alone decides', async () => {
      const email = await account();
      const token = await resetLink(email);
      const lifetimeMs = stack.config.PASSWORD_RESET_TTL_MINUTES * 60_000;
      try {
        stack.clock.advance(lifetimeMs + 1000);
        const late = await resetToNewPassword(token);
        expect(late.status).toBe(400);
        expect(late.json().error).toBe(PASSWORD_MESSAGES.resetInvalid);
      } finally {
        stack.clock.reset();
      }
      // Refused for its age alone: with the clock back within the lifetime, the same link still works.
      expect((await resetToNewPassword(token)).status).toBe(200);
      await signedIn(email, NEW_PASSWORD);
    });

    it('refuses a link a newer request replaced, and an unknown token, with the same answer', async () => {
      const email = await account();
      const first = await resetLink(email);
      const second = await resetLink(email);
      expect(second).not.toBe(first);
      for (const token of [first, 'made-up-token']) {
        const res = await resetToNewPassword(token);
        expect(res.status).toBe(400);
        expect(res.json().error).toBe(PASSWORD_MESSAGES.resetInvalid);
      }
      const res = await resetToNewPassword(second);
      expect(res.status).toBe(200);
    });

    it('applies the registration rules to the new password and keeps the link for a valid try', async () => {
      const email = await account();
      const token = await resetLink(email);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ token, password: 'short', confirmPassword: 'short' }, IDENTITY_MESSAGES.registerPassword],
        [
          { token, password: NEW_PASSWORD, confirmPassword: 'something else' },
          IDENTITY_MESSAGES.registerMismatch,
        ],
        [{ password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, PASSWORD_MESSAGES.noResetToken],
        [
          { token: '', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
          PASSWORD_MESSAGES.noResetToken,
        ],
      ];
      for (const [body, message] of cases) {
        const res = await stack.browser().post('/api/auth/reset-password', body);
        expect(res.status).toBe(400);
        expect(res.json().error).toBe(message);
      }
      await signedIn(email, PASSWORD);
      const res = await resetToNewPassword(token);
      expect(res.status).toBe(200);
    });

    it('lets one of two simultaneous uses of a link win', async () => {
      const email = await account();
      const token = await resetLink(email);
      const answers = await Promise.all(
        ['first new password', 'second new password'].map((password) =>
          stack.browser().post('/api/auth/reset-password', { token, password, confirmPassword: password }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      expect(
        (await stack.events('identity.password.changed')).filter((e) => e.data.email === email),
      ).toHaveLength(1);
    });
  });

  describe('POST /api/auth/change-password', () => {
    it('needs a session', async () => {
      const res = await changeToNewPassword(stack.browser(), PASSWORD);
      expect(res.status).toBe(401);
    });

    it('ends every other session, keeps this browser signed in and tells the owner', async () => {
      const email = await account();
      const here = await signedIn(email);
      const elsewhere = await signedIn(email);
      const res = await changeToNewPassword(here, PASSWORD);
      expect(res.status).toBe(200);
      expect((await elsewhere.get('/api/auth/me')).status).toBe(401);
      expect((await here.get('/api/auth/me')).json().user.email).toBe(email);
      const changed = (await stack.events('identity.password.changed')).filter((e) => e.data.email === email);
      expect(changed.map((e) => e.data.how)).toEqual(['change']);
    });

    it('counts a wrong current password like a failed sign-in from that browser', async () => {
      const email = await account();
      const browser = await signedIn(email);
      for (let i = 0; i < stack.config.LOGIN_LOCK_AFTER_PER_EMAIL; i++) {
        const res = await changeToNewPassword(browser, `guess ${i}`);
        expect(res.status).toBe(400);
      }
      const locked = await changeToNewPassword(browser, PASSWORD);
      expect(locked.status).toBe(429);
      // The browser signed in before, so its failures count against it (its device cookie) alone.
      expect((await browser.post('/api/login', { email, password: PASSWORD })).status).toBe(429);
      expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).status).toBe(200);
    });

    it('counts a wrong current password against the email when the browser has no device cookie', async () => {
      const email = await account();
      const browser = await signedIn(email);
      browser.setCookie(DEVICE_COOKIE, '');
      for (let i = 0; i < stack.config.LOGIN_LOCK_AFTER_PER_EMAIL; i++) {
        expect((await changeToNewPassword(browser, `guess ${i}`)).status).toBe(400);
      }
      expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).status).toBe(429);
    });
  });

  describe('rehash at sign-in', () => {
    it('replaces a hash cheaper than the configured cost with one at that cost, once', async () => {
      const email = await account();
      await stack.users.updateOne({ email }, { $set: { passwordHash: await hashPassword(PASSWORD, 10) } });
      expect(hashParams((await stack.users.findOne({ email }).lean())!.passwordHash)?.cost).toBe(10);

      await signedIn(email);
      const rehashed = (await stack.users.findOne({ email }).lean())!.passwordHash;
      expect(hashParams(rehashed)).toEqual({ cost: stack.config.PASSWORD_HASH_COST, r: 8, p: 1 });
      expect(stack.config.PASSWORD_HASH_COST).toBeGreaterThan(10);

      // The new hash verifies the same password, and is not replaced again.
      await signedIn(email);
      expect((await stack.users.findOne({ email }).lean())!.passwordHash).toBe(rehashed);
      expect((await stack.browser().post('/api/login', { email, password: 'wrong password' })).status).toBe(
        401,
      );
    });

    it('leaves a cheaper hash alone when the password is wrong', async () => {
      const email = await account();
      const cheap = await hashPassword(PASSWORD, 10);
      await stack.users.updateOne({ email }, { $set: { passwordHash: cheap } });
      expect((await stack.browser().post('/api/login', { email, password: 'wrong password' })).status).toBe(
        401,
      );
      expect((await stack.users.findOne({ email }).lean())!.passwordHash).toBe(cheap);
    });
  });
});

describe('password reset requests from one client address', () => {
  const stack = useHarness(() => startIdentityStack({ env: { PASSWORD_RESET_MAX_PER_HOUR_PER_IP: '3' } }));
  it('are refused past the hourly allowance, whatever addresses they name and whatever the client claims', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await stack
        .browser()
        .post('/api/auth/forgot-password', { email: `someone${i}@example.com` });
      expect(res.status).toBe(200);
    }
    const res = await stack
      .browser()
      .post(
        '/api/auth/forgot-password',
        { email: 'someone-else@example.com' },
        { headers: { 'x-forwarded-for': '203.0.113.77' } },
      );
    expect(res.status).toBe(429);
    expect(res.json().error).toBe(PASSWORD_MESSAGES.resetTooMany);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await stack.events('identity.password-reset.requested')).toEqual([]);
  });
});
