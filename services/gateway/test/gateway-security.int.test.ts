import {
  CookieClient,
  type TestRedis,
  leaseRedisDb,
  listen,
  startTestGateway,
  type Listening,
  type TestGateway,
} from '@lsp/testing';
import Fastify from 'fastify';
import { RATE_LIMITED_MESSAGE } from '../src/rate-limit';

jest.setTimeout(60_000);

/** An upstream that says who it is and what it was sent. */
async function startEcho(name: string): Promise<Listening> {
  const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  app.all('/*', async (request, reply) => {
    if (request.url.startsWith('/page'))
      return reply.type('text/html').send('<!doctype html><p>shell page</p>');
    return { upstream: name, path: request.url, headers: request.headers };
  });
  return listen(app);
}

describe('gateway security duties', () => {
  let redis: TestRedis;
  let identity: Listening;
  let shell: Listening;
  let notifications: Listening;
  const gateways: TestGateway[] = [];

  const gateway = async (env: Record<string, string> = {}) => {
    const started = await startTestGateway({
      redisUrl: redis.url,
      upstreams: {
        identity: identity.url,
        search: identity.url,
        shell: shell.url,
        notifications: notifications.url,
      },
      env,
    });
    gateways.push(started);
    return started;
  };

  beforeAll(async () => {
    redis = await leaseRedisDb();
    identity = await startEcho('identity');
    shell = await startEcho('shell');
    notifications = await startEcho('notifications');
  });
  afterAll(async () => {
    for (const g of gateways) await g.close();
    await identity.close();
    await shell.close();
    await notifications.close();
    await redis.release();
  });

  it('sends a Content-Security-Policy and the other security headers on pages and API answers', async () => {
    const g = await gateway();
    const client = new CookieClient(g.url);
    for (const path of ['/page/dashboard', '/api/auth/me']) {
      const res = await client.get(path);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('adds HSTS and upgrade-insecure-requests under an https public URL', async () => {
    const g = await gateway({ PUBLIC_URL: 'https://loans.example.com' });
    const res = await new CookieClient(g.url).get('/page/');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });

  it('counts sign-in attempts in Redis, so two gateway instances share one allowance', async () => {
    const env = { RATE_LIMIT_AUTH_MAX: '4', RATE_LIMIT_MAX: '1000', RATE_LIMIT_WINDOW_SECONDS: '3600' };
    const [a, b] = [await gateway(env), await gateway(env)];
    const clients = [new CookieClient(a.url), new CookieClient(b.url)];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await clients[i % 2].post('/api/login', { email: 'a@b.co', password: 'x' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const refused = await clients[1].post('/api/login', {});
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({ success: false, error: RATE_LIMITED_MESSAGE });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other API calls have their own, larger allowance.
    expect((await clients[0].get('/api/development')).status).toBe(200);
  });

  it('refuses a body over the limit with a JSON 413 before it reaches a service', async () => {
    const g = await gateway({ BODY_LIMIT_BYTES: '1000' });
    const res = await new CookieClient(g.url).post('/api/development', { projectName: 'x'.repeat(2000) });
    expect(res.status).toBe(413);
    expect(res.json().success).toBe(false);
    expect(typeof res.json().error).toBe('string');
  });

  it('tells services the address it saw, not the one a client claims', async () => {
    const g = await gateway();
    const res = await new CookieClient(g.url).get('/api/auth/me', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.json().headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('routes /dev/mail to notifications only when the mail catcher is enabled', async () => {
    const off = await gateway();
    const whenOff = await new CookieClient(off.url).get('/dev/mail');
    expect(whenOff.json().upstream).toBe('shell');
    const on = await gateway({ MAIL_CATCHER_ENABLED: 'true' });
    const whenOn = await new CookieClient(on.url).get('/dev/mail/messages');
    expect(whenOn.json()).toMatchObject({ upstream: 'notifications', path: '/dev/mail/messages' });
  });
});
