import { IDENTITY_MESSAGES, SESSION_COOKIE } from '@lsp/contracts';
import { type CookieClient, useHarness } from '@lsp/testing';
import { LOGIN_LOCKED_MESSAGE } from '../src/domain/throttles';
import { DEVICE_COOKIE } from '../src/http/device-cookie';
import { startIdentityStack } from './harness';

const PASSWORD = 'correct horse battery';

jest.setTimeout(90_000);

/**
 * Nobody can lock anyone out (OWASP's device cookies): failures from elsewhere lock an account for
 * untrusted clients only; a browser that signed in to the account before keeps signing in.
 */
describe('sign-in lock-out and device cookies', () => {
  const stack = useHarness(startIdentityStack);
  let counter = 0;
  const newEmail = () => `device${++counter}.${Date.now()}@example.com`;

  async function registered(email = newEmail()) {
    const res = await stack
      .browser()
      .post('/api/auth/register', { name: 'Vic Tim', email, password: PASSWORD });
    expect(res.status).toBe(201);
    return email;
  }

  /** The victim's own browser: it has signed in to the account before, then signed out. */
  async function ownBrowser(email: string): Promise<CookieClient> {
    const browser = stack.browser();
    const res = await browser.post('/api/login', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(browser.cookie(DEVICE_COOKIE)).toBeDefined();
    expect((await browser.post('/api/logout', {})).status).toBe(200);
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    return browser;
  }

  async function failFromElsewhere(email: string, times: number, browser?: CookieClient) {
    const statuses: number[] = [];
    for (let i = 0; i < times; i += 1) {
      const client = browser ?? stack.browser();
      statuses.push((await client.post('/api/login', { email, password: `wrong-${i}` })).status);
    }
    return statuses;
  }

  it('issues a signed, HttpOnly, SameSite=Strict device cookie for /api at sign-in, through the gateway', async () => {
    const email = await registered();
    const res = await stack.browser().post('/api/login', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    const device = res.setCookies.find((c) => c.name === DEVICE_COOKIE);
    expect(device).toBeDefined();
    expect(device!.attributes).toMatchObject({ httponly: true, path: '/api', samesite: 'Strict' });
    expect(Number(device!.attributes['max-age'])).toBe(stack.config.DEVICE_COOKIE_LIFETIME_DAYS * 86400);
    // It names the account by a digest, never the address itself.
    expect(decodeURIComponent(device!.value)).not.toContain(email.split('@')[0]);
  });

  it('lets the victim sign in from their own browser after 8+ failures from elsewhere; untrusted clients stay locked', async () => {
    const email = await registered();
    const own = await ownBrowser(email);
    const lock = stack.config.LOGIN_LOCK_AFTER_PER_EMAIL;
    const attack = await failFromElsewhere(email, lock + 4);
    expect(attack.slice(0, lock).every((s) => s === 401)).toBe(true);
    expect(attack.slice(lock).every((s) => s === 429)).toBe(true);

    // An untrusted client is locked even with the right password.
    const untrusted = await stack.browser().post('/api/login', { email, password: PASSWORD });
    expect(untrusted.status).toBe(429);
    expect(untrusted.json().error).toBe(LOGIN_LOCKED_MESSAGE);

    // The victim's browser signs in.
    const victim = await own.post('/api/login', { email, password: PASSWORD });
    expect(victim.status).toBe(200);
    expect(own.cookie(SESSION_COOKIE)).toBeDefined();
    expect((await own.get('/api/auth/me')).json().user.email).toBe(email.toLowerCase());

    // Its success does not lift the lock for the attacker.
    expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).status).toBe(429);
  });

  it('does not trust a device cookie of another account, nor a tampered one', async () => {
    const victim = await registered();
    const attacker = await registered();
    const genuine = (await ownBrowser(victim)).cookie(DEVICE_COOKIE)!;
    // The attacker's own browser carries a device cookie, for the attacker's account.
    const attackerBrowser = await ownBrowser(attacker);
    const lock = stack.config.LOGIN_LOCK_AFTER_PER_EMAIL;
    const statuses = await failFromElsewhere(victim, lock + 1, attackerBrowser);
    expect(statuses.slice(0, lock).every((s) => s === 401)).toBe(true);
    expect(statuses[lock]).toBe(429);
    expect((await attackerBrowser.post('/api/login', { email: victim, password: PASSWORD })).status).toBe(
      429,
    );

    // The victim's cookie with one character of its nonce changed: the signature no longer matches.
    const tampered = decodeURIComponent(genuine).replace(
      /^([0-9a-f]{32}\.)(.)/,
      (_, account, first) => `${account}${first === 'A' ? 'B' : 'A'}`,
    );
    expect(tampered).not.toBe(decodeURIComponent(genuine));
    const forged = stack.browser();
    forged.setCookie(DEVICE_COOKIE, encodeURIComponent(tampered));
    expect((await forged.post('/api/login', { email: victim, password: PASSWORD })).status).toBe(429);
    // The genuine one still signs its owner in.
    const own = stack.browser();
    own.setCookie(DEVICE_COOKIE, genuine);
    expect((await own.post('/api/login', { email: victim, password: PASSWORD })).status).toBe(200);
  });

  it('counts a trusted device’s own failures against it alone', async () => {
    const email = await registered();
    const own = await ownBrowser(email);
    const second = await ownBrowser(email);
    const lock = stack.config.LOGIN_LOCK_AFTER_PER_EMAIL;
    const statuses = await failFromElsewhere(email, lock + 1, own);
    expect(statuses.slice(0, lock).every((s) => s === 401)).toBe(true);
    expect(statuses[lock]).toBe(429);
    expect((await own.post('/api/login', { email, password: PASSWORD })).status).toBe(429);
    // Another browser of the owner, and untrusted clients, are not locked by that device's failures.
    expect((await second.post('/api/login', { email, password: PASSWORD })).status).toBe(200);
    expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).status).toBe(200);
  });

  it('refuses a name with a control character or U+202E at registration, in the form’s words', async () => {
    for (const name of ['Vic\u202Efdp.exe', 'Vic\u0007Tim']) {
      const res = await stack.browser().post('/api/auth/register', {
        name,
        email: newEmail(),
        password: PASSWORD,
      });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        error: IDENTITY_MESSAGES.registerNameCharacters,
        fields: { name: IDENTITY_MESSAGES.registerNameCharacters },
      });
    }
  });
});

describe('failures from one address (an office behind one NAT)', () => {
  const stack = useHarness(() => startIdentityStack({ env: { LOGIN_LOCK_AFTER_PER_IP: '5' } }));

  it('locks untrusted clients of the address, never a browser that signed in to its account before', async () => {
    const email = `office.${Date.now()}@example.com`;
    expect(
      (await stack.browser().post('/api/auth/register', { name: 'Olu Office', email, password: PASSWORD }))
        .status,
    ).toBe(201);
    const colleague = stack.browser();
    expect((await colleague.post('/api/login', { email, password: PASSWORD })).status).toBe(200);

    // Someone at the same address guesses five other accounts.
    for (let i = 0; i < 5; i += 1)
      expect(
        (await stack.browser().post('/api/login', { email: `guess${i}@example.com`, password: 'nope' }))
          .status,
      ).toBe(401);
    expect(
      (await stack.browser().post('/api/login', { email: 'guess9@example.com', password: 'nope' })).status,
    ).toBe(429);
    // A new browser at that address is locked, even with the right password...
    expect((await stack.browser().post('/api/login', { email, password: PASSWORD })).status).toBe(429);
    // ...but the colleague's own browser signs in, and its failures do not count against the address.
    expect((await colleague.post('/api/login', { email, password: 'typo' })).status).toBe(401);
    expect((await colleague.post('/api/login', { email, password: PASSWORD })).status).toBe(200);
  });
});
