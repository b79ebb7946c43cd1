import { IDENTITY_MESSAGES, SESSION_COOKIE } from '@lsp/contracts';
import { useHarness } from '@lsp/testing';
import { MESSAGES } from '../src/data/accounts';
import { INVALID_CREDENTIALS } from '../src/use-cases/sign-in';
import { LOGIN_LOCKED_MESSAGE, RESEND_TOO_SOON_MESSAGE } from '../src/domain/throttles';
import { LEAD_INFO, latestVerificationToken, signedInBrowser, startIdentityStack } from './harness';

const PASSWORD = 'correct horse battery';

jest.setTimeout(60_000);

describe('identity through the gateway', () => {
  const stack = useHarness(startIdentityStack);
  let counter = 0;
  const newEmail = () => `person${++counter}.${Date.now()}@Example.com`;

  async function registered(email = newEmail(), password = PASSWORD) {
    const res = await stack.browser().post('/api/auth/register', { name: 'Ada Lovelace', email, password });
    expect(res.status).toBe(201);
    return { email: email.toLowerCase(), password, userId: res.json().user.id as string };
  }

  const signedIn = (email: string, password = PASSWORD) => signedInBrowser(stack, email, password);

  describe('POST /api/auth/register', () => {
    it('creates an unverified account, asks for a verification email and does not sign in', async () => {
      const email = newEmail();
      const browser = stack.browser();
      const res = await browser.post('/api/auth/register', {
        name: 'Ada Lovelace',
        email,
        password: PASSWORD,
        refDealId: 'deal-7',
        fromSharedLink: true,
      });
      expect(res.status).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        success: true,
        message: MESSAGES.registered,
        requiresVerification: true,
        user: { name: 'Ada Lovelace', email: email.toLowerCase(), verified: false },
      });
      expect(JSON.stringify(body)).not.toContain('passwordHash');
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();

      const events = await stack.events();
      const mine = events.filter((e) => e.subject === body.user.id);
      expect(mine.map((e) => e.type)).toEqual([
        'identity.user.registered',
        'identity.verification.requested',
      ]);
      expect(mine[0].data).toMatchObject({ source: 'register', refDealId: 'deal-7', fromSharedLink: true });
      const link = new URL(mine[1].data.verificationUrl);
      expect(`${link.origin}${link.pathname}`).toBe('http://localhost:8080/verify-email');
      expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    });

    it('stores a salted scrypt hash and only a hash of the verification token', async () => {
      const a = await registered();
      const b = await registered();
      const [userA, userB] = await Promise.all([
        stack.users.findById(a.userId),
        stack.users.findById(b.userId),
      ]);
      expect(userA!.passwordHash).toMatch(/^scrypt\$\d+\$8\$1\$/);
      expect(userA!.passwordHash).not.toBe(userB!.passwordHash);
      expect(userA!.passwordHash).not.toContain(PASSWORD);
      const token = await latestVerificationToken(stack, a.email);
      expect(userA!.verificationToken).toMatch(/^[0-9a-f]{64}$/);
      expect(userA!.verificationToken).not.toBe(token);
      expect(userA!.verificationExpiresAt!.getTime() - userA!.verificationSentAt!.getTime()).toBe(
        24 * 3600_000,
      );
    });

    it('refuses a second account for the same email in any letter case', async () => {
      const { email } = await registered();
      const res = await stack
        .browser()
        .post('/api/auth/register', { name: 'Someone', email: email.toUpperCase(), password: PASSWORD });
      expect(res.status).toBe(409);
      expect(res.json()).toEqual({ success: false, error: MESSAGES.duplicateEmail });
    });

    it.each([
      [{ name: 'A', email: 'a@b.co', password: PASSWORD }, IDENTITY_MESSAGES.registerName],
      [{ name: 'Ada', email: 'not-an-email', password: PASSWORD }, IDENTITY_MESSAGES.invalidEmail],
      [{ name: 'Ada', email: 'a@b.co', password: 'short' }, IDENTITY_MESSAGES.registerPassword],
    ])('rejects %j with its message', async (body, message) => {
      const res = await stack.browser().post('/api/auth/register', body);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: message });
    });
  });

  describe('POST /api/create-account', () => {
    const valid = () => ({
      name: 'Grace Hopper',
      email: newEmail(),
      phone: '07700 900123',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      searchData: { loanType: 'bridging', projectName: 'Mill' },
    });

    it('creates the account with its phone and search, and asks for verification', async () => {
      const body = valid();
      const res = await stack.browser().post('/api/create-account', body);
      expect(res.status).toBe(201);
      expect(res.json()).toEqual({ success: true, message: MESSAGES.accountCreated });
      const user = await stack.users.findOne({ email: body.email.toLowerCase() });
      expect(user).toMatchObject({ phone: '07700 900123', emailVerified: false, source: 'create-account' });
      expect(user!.signupSearchData).toEqual({ loanType: 'bridging', projectName: 'Mill' });
      const requested = await stack.events('identity.verification.requested');
      expect(requested.some((e) => e.subject === user!.id)).toBe(true);
    });

    it.each([
      ['name', '', IDENTITY_MESSAGES.createName],
      ['email', '', IDENTITY_MESSAGES.createEmailRequired],
      ['email', 'nope', IDENTITY_MESSAGES.invalidEmail],
      ['phone', '', IDENTITY_MESSAGES.createPhone],
      ['password', '', IDENTITY_MESSAGES.createPasswordRequired],
      ['password', 'short', IDENTITY_MESSAGES.createPassword],
      ['confirmPassword', 'something else', IDENTITY_MESSAGES.createMismatch],
    ])('rejects an invalid %s (%j) with "%s"', async (field, value, message) => {
      const body = { ...valid(), [field]: value };
      if (field === 'password') body.confirmPassword = value;
      const res = await stack.browser().post('/api/create-account', body);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: message });
      expect(await stack.users.exists({ email: body.email.toLowerCase() })).toBeNull();
    });

    it('answers a duplicate email with success false and an error', async () => {
      const { email } = await registered();
      const res = await stack.browser().post('/api/create-account', { ...valid(), email });
      expect(res.status).toBe(409);
      expect(res.json()).toEqual({ success: false, error: MESSAGES.duplicateEmail });
    });
  });

  describe('POST /api/login and the session', () => {
    it('signs in, sets an httpOnly SameSite=Lax signed cookie and answers me', async () => {
      const { email, userId } = await registered();
      const browser = stack.browser();
      const res = await browser.post('/api/login', { email: email.toUpperCase(), password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        user: { id: userId, name: 'Ada Lovelace', email, verified: false },
      });
      const cookie = res.setCookies.find((c) => c.name === SESSION_COOKIE)!;
      expect(cookie.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/' });
      expect(cookie.attributes.secure).toBeUndefined();
      // Signed: `<id>.<signature>`; the id alone is not accepted.
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9%+/=_-]+$/);
      const me = await browser.get('/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.json()).toEqual({
        user: { id: userId, name: 'Ada Lovelace', email, verified: false, roles: [] },
      });
    });

    it('keeps the session in Redis with a sliding expiry', async () => {
      const { email } = await registered();
      const browser = await signedIn(email);
      const keys = await stack.redis.redis.keys('session:*');
      expect(keys.length).toBeGreaterThan(0);
      const key = keys[0];
      await stack.redis.redis.expire(key, 100);
      for (const k of keys) await stack.redis.redis.expire(k, 100);
      await browser.get('/api/auth/me');
      const ttls = await Promise.all(keys.map((k) => stack.redis.redis.ttl(k)));
      expect(Math.max(...ttls)).toBeGreaterThan(100);
    });

    it('refuses a wrong password and an unknown email with the same answer', async () => {
      const { email } = await registered();
      const wrong = await stack.browser().post('/api/login', { email, password: 'not the password' });
      const unknown = await stack
        .browser()
        .post('/api/login', { email: newEmail(), password: 'not the password' });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.json()).toEqual({ success: false, error: INVALID_CREDENTIALS });
      expect(unknown.json()).toEqual(wrong.json());
      expect(wrong.setCookies).toEqual([]);
    });

    it.each([
      [{ email: '', password: PASSWORD }, IDENTITY_MESSAGES.loginEmailRequired],
      [{ email: 'a@b.co', password: '' }, IDENTITY_MESSAGES.loginPasswordRequired],
    ])('rejects %j with "%s"', async (body, message) => {
      const res = await stack.browser().post('/api/login', body);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: message });
    });

    it('issues a new session id at sign-in and ends the one the browser held (no fixation)', async () => {
      const victim = await registered();
      const attacker = await registered();
      // The attacker plants their own valid session cookie in the victim's browser.
      const attackerBrowser = await signedIn(attacker.email);
      const planted = attackerBrowser.cookie(SESSION_COOKIE)!;
      const browser = stack.browser();
      browser.setCookie(SESSION_COOKIE, planted);
      await browser.post('/api/login', { email: victim.email, password: PASSWORD });
      const fresh = browser.cookie(SESSION_COOKIE)!;
      expect(fresh).not.toBe(planted);
      expect((await browser.get('/api/auth/me')).json().user.id).toBe(victim.userId);
      // The planted session no longer signs anyone in.
      expect((await attackerBrowser.get('/api/auth/me')).status).toBe(401);
    });

    it('ignores a spoofed x-user-id header', async () => {
      const { userId } = await registered();
      const res = await stack
        .browser()
        .get('/api/auth/me', { headers: { 'x-user-id': userId, 'x-user-verified': 'true' } });
      expect(res.status).toBe(401);
      const spoofedLead = await stack
        .browser()
        .post(
          '/api/save-lead-info',
          { userId, leadInfo: { propertiesOwned: '1-2' } },
          { headers: { 'x-user-id': userId } },
        );
      expect(spoofedLead.status).toBe(401);
    });

    it('rejects a tampered session cookie', async () => {
      const { email } = await registered();
      const browser = await signedIn(email);
      const [id, signature] = browser.cookie(SESSION_COOKIE)!.split('.');
      browser.setCookie(SESSION_COOKIE, `${id}x.${signature}`);
      expect((await browser.get('/api/auth/me')).status).toBe(401);
    });
  });

  describe('POST /api/logout', () => {
    it('deletes the session and clears the cookie; me then answers 401 even with the old cookie', async () => {
      const { email } = await registered();
      const browser = await signedIn(email);
      const old = browser.cookie(SESSION_COOKIE)!;
      const res = await browser.post('/api/logout');
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const cleared = res.setCookies.find((c) => c.name === SESSION_COOKIE)!;
      expect(cleared.value).toBe('');
      expect((await browser.get('/api/auth/me')).status).toBe(401);
      browser.setCookie(SESSION_COOKIE, old);
      const replay = await browser.get('/api/auth/me');
      expect(replay.status).toBe(401);
      expect(replay.json()).toEqual({ success: false, error: 'Not signed in' });
    });

    it('answers a signed-out browser with success', async () => {
      const res = await stack.browser().post('/api/logout');
      expect(res.status).toBe(200);
    });
  });

  describe('GET /api/verify-email', () => {
    it('asks for a token when there is none', async () => {
      const res = await stack.browser().get('/api/verify-email');
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: IDENTITY_MESSAGES.noToken });
    });

    it('verifies once, updates the open session and publishes identity.user.verified', async () => {
      const { email, userId } = await registered();
      const browser = await signedIn(email);
      const token = await latestVerificationToken(stack, email);
      const res = await stack.browser().get(`/api/verify-email?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: MESSAGES.verified,
        user: { name: 'Ada Lovelace', email },
      });
      expect((await browser.get('/api/auth/me')).json().user.verified).toBe(true);
      const verified = await stack.events('identity.user.verified');
      expect(verified.filter((e) => e.subject === userId)).toHaveLength(1);
      const user = await stack.users.findById(userId);
      expect(user).toMatchObject({ emailVerified: true, verificationToken: null });
    });

    it('names the shared deal the account signed up from, so the person lands on it', async () => {
      const email = newEmail();
      const res = await stack.browser().post('/api/auth/register', {
        name: 'Ada Lovelace',
        email,
        password: PASSWORD,
        refDealId: 'Deal-token_0123456789abcdef',
        fromSharedLink: true,
      });
      expect(res.status).toBe(201);
      const token = await latestVerificationToken(stack, email.toLowerCase());
      const verified = await stack.browser().get(`/api/verify-email?token=${encodeURIComponent(token)}`);
      expect(verified.status).toBe(200);
      expect(verified.json()).toMatchObject({ success: true, refDealId: 'Deal-token_0123456789abcdef' });
    });

    it('hands the search run the account was created with to search on verification (register and create-account)', async () => {
      const runId = '0b7d4f3e-9c1a-4e8b-a5f2-3d6c7e8f9a01';
      const viaRegister = newEmail();
      const viaCreate = newEmail();
      const plain = await registered();
      const registeredWithRun = await stack.browser().post('/api/auth/register', {
        name: 'Ada Lovelace',
        email: viaRegister,
        password: PASSWORD,
        searchRunId: runId,
      });
      expect(registeredWithRun.status).toBe(201);
      const createdWithRun = await stack.browser().post('/api/create-account', {
        name: 'Ada Lovelace',
        email: viaCreate,
        phone: '07700 900123',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        searchRunId: runId,
      });
      expect(createdWithRun.status).toBe(201);
      for (const email of [viaRegister.toLowerCase(), viaCreate.toLowerCase(), plain.email]) {
        const token = await latestVerificationToken(stack, email);
        expect(
          (await stack.browser().get(`/api/verify-email?token=${encodeURIComponent(token)}`)).status,
        ).toBe(200);
      }
      const verified = await stack.events('identity.user.verified');
      const runOf = (email: string) => verified.find((e) => e.data.email === email)?.data.searchRunId;
      expect(runOf(viaRegister.toLowerCase())).toBe(runId);
      expect(runOf(viaCreate.toLowerCase())).toBe(runId);
      expect(verified.find((e) => e.subject === plain.userId)?.data).not.toHaveProperty('searchRunId');
    });

    it('refuses a search run id that is not one with 400, creating no account', async () => {
      const email = newEmail();
      const res = await stack.browser().post('/api/auth/register', {
        name: 'Ada Lovelace',
        email,
        password: PASSWORD,
        searchRunId: '{"$ne":null}',
      });
      expect(res.status).toBe(400);
      expect(res.json().error).toBe('Search run id must be a search run id');
      expect(await stack.users.findOne({ email: email.toLowerCase() })).toBeNull();
    });

    it('says clearly that a used link has already verified the address', async () => {
      const { email, userId } = await registered();
      const token = await latestVerificationToken(stack, email);
      await stack.browser().get(`/api/verify-email?token=${token}`);
      const again = await stack.browser().get(`/api/verify-email?token=${token}`);
      expect(again.status).toBe(409);
      expect(again.json()).toMatchObject({
        success: false,
        error: MESSAGES.alreadyVerified,
        alreadyVerified: true,
      });
      const verified = await stack.events('identity.user.verified');
      expect(verified.filter((e) => e.subject === userId)).toHaveLength(1);
    });

    it('refuses an expired link and offers a resend', async () => {
      const { email, userId } = await registered();
      const token = await latestVerificationToken(stack, email);
      await stack.users.updateOne(
        { _id: userId },
        { $set: { verificationExpiresAt: new Date(Date.now() - 1000) } },
      );
      const res = await stack.browser().get(`/api/verify-email?token=${token}`);
      expect(res.status).toBe(410);
      expect(res.json()).toEqual({
        success: false,
        error: MESSAGES.expiredToken,
        canResend: true,
        user: { name: 'Ada Lovelace', email },
      });
      expect((await stack.users.findById(userId))!.emailVerified).toBe(false);
    });

    it('refuses an unknown token and offers a resend', async () => {
      const res = await stack.browser().get('/api/verify-email?token=not-a-real-token');
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ success: false, error: MESSAGES.invalidToken, canResend: true });
    });
  });

  describe('POST /api/auth/resend-verification', () => {
    it('asks for an email when there is none', async () => {
      const res = await stack.browser().post('/api/auth/resend-verification', { email: '' });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: IDENTITY_MESSAGES.resendEmailRequired });
    });

    it('is refused right after the registration email, per address', async () => {
      const { email } = await registered();
      const res = await stack.browser().post('/api/auth/resend-verification', { email });
      expect(res.status).toBe(429);
      expect(res.json()).toMatchObject({ success: false, error: RESEND_TOO_SOON_MESSAGE });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('sends a new link that replaces the old one once the interval has passed', async () => {
      const { email, userId } = await registered();
      const oldToken = await latestVerificationToken(stack, email);
      await stack.redis.redis.del(...(await stack.redis.redis.keys('verification-sent:recent:*')));
      const res = await stack.browser().post('/api/auth/resend-verification', { email: email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ success: true, message: MESSAGES.verificationSent });
      const newToken = await latestVerificationToken(stack, email);
      expect(newToken).not.toBe(oldToken);
      const requested = (await stack.events('identity.verification.requested')).filter(
        (e) => e.subject === userId,
      );
      expect(requested.map((e) => e.data.reason)).toEqual(['registration', 'resend']);
      expect((await stack.browser().get(`/api/verify-email?token=${oldToken}`)).status).toBe(400);
      expect((await stack.browser().get(`/api/verify-email?token=${newToken}`)).status).toBe(200);
    });

    it('answers an unknown address exactly as a known one, and sends nothing', async () => {
      const before = (await stack.events('identity.verification.requested')).length;
      const res = await stack.browser().post('/api/auth/resend-verification', { email: newEmail() });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ success: true, message: MESSAGES.verificationSent });
      expect((await stack.events('identity.verification.requested')).length).toBe(before);
    });
  });

  describe('POST /api/save-lead-info', () => {
    it('keeps the lead answers on the signed-in user', async () => {
      const { email, userId } = await registered();
      const browser = await signedIn(email);
      const res = await browser.post('/api/save-lead-info', {
        userId,
        leadInfo: LEAD_INFO,
        searchData: { loanType: 'development' },
      });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const user = await stack.users.findById(userId);
      // Every answer but the name is kept on the user.
      const { fullName: _name, ...answers } = LEAD_INFO;
      expect(user).toMatchObject(answers);
      expect(user!.leadSearchData).toEqual({ loanType: 'development' });
    });

    it('needs a session', async () => {
      const res = await stack.browser().post('/api/save-lead-info', { leadInfo: LEAD_INFO });
      expect(res.status).toBe(401);
    });

    it("refuses to write another user's record", async () => {
      const me = await registered();
      const other = await registered();
      const browser = await signedIn(me.email);
      const res = await browser.post('/api/save-lead-info', { userId: other.userId, leadInfo: LEAD_INFO });
      expect(res.status).toBe(403);
      expect((await stack.users.findById(other.userId))!.propertiesOwned).toBeUndefined();
    });

    it('rejects a missing number of properties with its message', async () => {
      const { email } = await registered();
      const browser = await signedIn(email);
      const res = await browser.post('/api/save-lead-info', { leadInfo: { fullName: 'Ada' } });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: 'Please select number of properties' });
    });
  });

  describe('brute force', () => {
    it('refuses sign-in with 429 after repeated failures for one email, even with the right password', async () => {
      const { email } = await registered();
      const statuses: number[] = [];
      for (let i = 0; i < stack.config.LOGIN_LOCK_AFTER_PER_EMAIL; i++) {
        statuses.push((await stack.browser().post('/api/login', { email, password: `wrong-${i}` })).status);
      }
      expect(statuses.every((s) => s === 401)).toBe(true);
      const locked = await stack.browser().post('/api/login', { email, password: PASSWORD });
      expect(locked.status).toBe(429);
      expect(locked.json()).toMatchObject({ success: false, error: LOGIN_LOCKED_MESSAGE });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(locked.setCookies).toEqual([]);
    });

    it('locks an unregistered email the same way, so the answer reveals nothing', async () => {
      const email = newEmail();
      for (let i = 0; i < stack.config.LOGIN_LOCK_AFTER_PER_EMAIL; i++) {
        await stack.browser().post('/api/login', { email, password: `wrong-${i}` });
      }
      const locked = await stack.browser().post('/api/login', { email, password: PASSWORD });
      expect(locked.status).toBe(429);
      expect(locked.json()).toMatchObject({ success: false, error: LOGIN_LOCKED_MESSAGE });
    });

    it('resets the count for an email after a successful sign-in', async () => {
      const { email } = await registered();
      for (let i = 0; i < stack.config.LOGIN_LOCK_AFTER_PER_EMAIL - 1; i++) {
        await stack.browser().post('/api/login', { email, password: `wrong-${i}` });
      }
      expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).status).toBe(200);
      expect((await stack.browser().post('/api/login', { email, password: 'wrong again' })).status).toBe(401);
    });
  });
});

describe('brute force from one address', () => {
  const stack = useHarness(() => startIdentityStack({ env: { LOGIN_LOCK_AFTER_PER_IP: '5' } }));
  it('refuses sign-in from an address that failed for many different emails', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await stack
        .browser()
        .post('/api/login', { email: `guess${i}@example.com`, password: 'password1' });
      expect(res.status).toBe(401);
    }
    const res = await stack
      .browser()
      .post('/api/login', { email: 'another@example.com', password: 'password1' });
    expect(res.status).toBe(429);
    expect(res.json().error).toBe(LOGIN_LOCKED_MESSAGE);
  });

  it('counts the client address the gateway saw, not one the client claims', async () => {
    const res = await stack
      .browser()
      .post(
        '/api/login',
        { email: 'fresh@example.com', password: 'password1' },
        { headers: { 'x-forwarded-for': '203.0.113.9' } },
      );
    expect(res.status).toBe(429);
  });
});

describe('cookie under https', () => {
  it('marks the session cookie Secure when the public URL is https', async () => {
    const stack = await startIdentityStack({ env: { PUBLIC_URL: 'https://loans.example.com' } });
    try {
      const email = `secure.${Date.now()}@example.com`;
      await stack.browser().post('/api/auth/register', { name: 'Ada', email, password: PASSWORD });
      const res = await stack.browser().post('/api/login', { email, password: PASSWORD });
      expect(res.setCookies.find((c) => c.name === SESSION_COOKIE)!.attributes.secure).toBe(true);
      const requested = await stack.events('identity.verification.requested');
      expect(
        requested[0].data.verificationUrl.startsWith('https://loans.example.com/verify-email?token='),
      ).toBe(true);
    } finally {
      await stack.close();
    }
  });
});
