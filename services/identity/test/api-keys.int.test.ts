// API keys: made, listed and revoked by a verified person in a browser session, through the real
// gateway; only the key's SHA-256 is stored; a key never manages keys.
import { createHash } from 'node:crypto';
import {
  API_KEY_ID_HEADER,
  API_KEY_MESSAGES,
  API_KEY_PATTERN,
  API_KEY_SCOPES,
  type ApiKeyRecord,
  apiKeyLookupKey,
} from '@lsp/contracts';
import { TEST_SECRETS, useHarness } from '@lsp/testing';
import { registerVerified, signedInBrowser, startIdentityStack } from './harness';

const PASSWORD = 'correct horse battery';

jest.setTimeout(60_000);

describe('API keys', () => {
  const stack = useHarness(startIdentityStack);
  let counter = 0;

  async function verifiedBrowser() {
    const email = `keys${++counter}.${Date.now()}@example.com`;
    await registerVerified(stack, { name: 'Brenda Broker', email, password: PASSWORD });
    return signedInBrowser(stack, email, PASSWORD);
  }

  it('makes a key shown once, stores only its hash, and lists it without the secret', async () => {
    const browser = await verifiedBrowser();
    const made = await browser.post('/api/api-keys', {
      name: 'CRM sync',
      scopes: ['dips:read', 'searches:write'],
    });
    expect(made.status).toBe(201);
    const body = made.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      name: 'CRM sync',
      key: expect.stringMatching(API_KEY_PATTERN),
      prefix: body.key.slice(0, 16),
      scopes: ['searches:write', 'dips:read'],
      createdAt: expect.any(String),
      expiresAt: null,
    });

    const record = JSON.parse(
      (await stack.redis.redis.get(apiKeyLookupKey(body.id))) as string,
    ) as ApiKeyRecord;
    expect(record.digest).toBe(createHash('sha256').update(body.key).digest('hex'));
    expect(record.scopes).toEqual(['searches:write', 'dips:read']);
    // The key itself is nowhere in Redis.
    for (const name of await stack.redis.redis.keys('*')) {
      const type = await stack.redis.redis.type(name);
      const value =
        type === 'string'
          ? await stack.redis.redis.get(name)
          : type === 'hash'
            ? JSON.stringify(await stack.redis.redis.hgetall(name))
            : '';
      expect(value ?? '').not.toContain(body.key.slice(30));
    }

    const listed = await browser.get('/api/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.json()).toEqual({
      apiKeys: [
        {
          id: body.id,
          name: 'CRM sync',
          prefix: body.prefix,
          scopes: ['searches:write', 'dips:read'],
          createdAt: body.createdAt,
          expiresAt: null,
          lastUsedAt: null,
        },
      ],
    });
    expect(listed.text).not.toContain(body.key);
  });

  it('grants every scope when none is named, and an expiry when asked', async () => {
    const browser = await verifiedBrowser();
    const made = await browser.post('/api/api-keys', { name: 'All of it', expiresInDays: 30 });
    expect(made.status).toBe(201);
    expect(made.json().scopes).toEqual([...API_KEY_SCOPES]);
    const days = (Date.parse(made.json().expiresAt) - Date.parse(made.json().createdAt)) / 86_400_000;
    expect(days).toBe(30);
    const ttl = await stack.redis.redis.ttl(apiKeyLookupKey(made.json().id));
    expect(ttl).toBeGreaterThan(29 * 86_400);
  });

  it('refuses bad input with a clear 400 and makes nothing', async () => {
    const browser = await verifiedBrowser();
    const cases: Array<[unknown, string]> = [
      [{}, API_KEY_MESSAGES.nameRequired],
      [{ name: '   ' }, API_KEY_MESSAGES.nameRequired],
      [{ name: 'x'.repeat(101) }, API_KEY_MESSAGES.nameTooLong],
      [{ name: 'CRM', scopes: ['everything'] }, API_KEY_MESSAGES.unknownScope],
      [{ name: 'CRM', scopes: [] }, API_KEY_MESSAGES.scopesEmpty],
      [{ name: 'CRM', expiresInDays: 0 }, API_KEY_MESSAGES.expiresInDays],
      [{ name: 'CRM', expiresInDays: 1.5 }, API_KEY_MESSAGES.expiresInDays],
    ];
    for (const [input, message] of cases) {
      const res = await browser.post('/api/api-keys', input);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: expect.stringContaining(message) });
    }
    const extra = await browser.post('/api/api-keys', { name: 'CRM', userId: 'someone-else' });
    expect(extra.status).toBe(400);
    expect((await browser.get('/api/api-keys')).json()).toEqual({ apiKeys: [] });
  });

  it('is only for a verified person who is signed in', async () => {
    expect((await stack.browser().post('/api/api-keys', { name: 'CRM' })).status).toBe(401);
    expect((await stack.browser().get('/api/api-keys')).status).toBe(401);
    const email = `unverified${++counter}.${Date.now()}@example.com`;
    const browser = stack.browser();
    expect(
      (await browser.post('/api/auth/register', { name: 'Una Verified', email, password: PASSWORD })).status,
    ).toBe(201);
    expect((await browser.post('/api/login', { email, password: PASSWORD })).status).toBe(200);
    const res = await browser.post('/api/api-keys', { name: 'CRM' });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ success: false, verificationRequired: true });
  });

  it('never lets a key manage keys: the gateway refuses it, and so does identity', async () => {
    const browser = await verifiedBrowser();
    const { key, id } = (await browser.post('/api/api-keys', { name: 'CRM' })).json();
    const bearer = { headers: { authorization: `Bearer ${key}` } };
    for (const res of [
      await stack.browser().post('/api/api-keys', { name: 'Another' }, bearer),
      await stack.browser().get('/api/api-keys', bearer),
      await stack.browser().request('DELETE', `/api/api-keys/${id}`, bearer),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({ success: false, error: API_KEY_MESSAGES.notForKeys });
    }
    // A call the gateway marks as made with a key is refused by identity too.
    const me = (await browser.get('/api/auth/me')).json().user;
    const direct = await fetch(`${stack.identityUrl}/api/api-keys`, {
      headers: {
        'x-internal-secret': TEST_SECRETS.INTERNAL_SECRET,
        'x-user-id': me.id,
        'x-user-email': encodeURIComponent(me.email),
        'x-user-name': encodeURIComponent(me.name),
        'x-user-verified': 'true',
        [API_KEY_ID_HEADER]: id,
      },
    });
    expect(direct.status).toBe(403);
    expect(await direct.json()).toEqual({ success: false, error: API_KEY_MESSAGES.sessionOnly });
    expect((await browser.get('/api/api-keys')).json().apiKeys).toHaveLength(1);
  });

  it('revokes at once; another user can neither see nor revoke it', async () => {
    const owner = await verifiedBrowser();
    const other = await verifiedBrowser();
    const { key, id } = (await owner.post('/api/api-keys', { name: 'CRM' })).json();
    const bearer = { headers: { authorization: `Bearer ${key}` } };
    // A route a key may call (its upstream is down in this stack, so past the key check it is a 50x).
    const call = () => stack.browser().get('/api/user-searches/anyone', bearer);
    expect((await call()).status).toBeGreaterThanOrEqual(500);

    expect((await other.get('/api/api-keys')).json()).toEqual({ apiKeys: [] });
    const refused = await other.request('DELETE', `/api/api-keys/${id}`);
    expect(refused.status).toBe(404);
    expect(refused.json()).toEqual({ success: false, error: API_KEY_MESSAGES.notFound });
    expect((await call()).status).toBeGreaterThanOrEqual(500);
    expect((await owner.get('/api/api-keys')).json().apiKeys[0].lastUsedAt).toEqual(expect.any(String));

    expect((await owner.request('DELETE', `/api/api-keys/${id}`)).json()).toEqual({ success: true });
    const after = await call();
    expect(after.status).toBe(401);
    expect(after.json()).toEqual({ success: false, error: API_KEY_MESSAGES.invalidKey });
    expect((await owner.get('/api/api-keys')).json()).toEqual({ apiKeys: [] });
    expect((await owner.request('DELETE', `/api/api-keys/${id}`)).status).toBe(404);
    expect((await owner.request('DELETE', '/api/api-keys/not-an-id')).status).toBe(404);
    expect((await owner.request('DELETE', `/api/api-keys/${'a'.repeat(65)}`)).status).toBe(400);
  });
});
