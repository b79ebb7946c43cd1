import { CookieClient, type TestRedis, leaseRedisDb, listen, type Listening } from '@lsp/testing';
import { startTestGateway, type TestGateway } from './test-gateway';
import Fastify from 'fastify';
import net from 'node:net';
import { CROSS_SITE_MESSAGE, JSON_ONLY_MESSAGE } from '../src/cross-site';
import { MALFORMED_PATH_MESSAGE } from '../src/path-guard';
import { RATE_LIMITED_MESSAGE } from '../src/rate-limit';

jest.setTimeout(60_000);

/** Every path each echo upstream was asked for, in order. */
const seenByUpstream: string[] = [];

/** An upstream that says who it is and what it was sent. */
async function startEcho(name: string): Promise<Listening> {
  const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  app.all('/*', async (request, reply) => {
    if (request.url !== '/alive') seenByUpstream.push(`${name} ${request.url}`);
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

  /** One request exactly as written on the wire: fetch would normalise the path before sending it. */
  const rawGet = (baseUrl: string, target: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(baseUrl);
      const socket = net.connect(Number(port), hostname);
      let data = '';
      let settled = false;
      // Proxied answers keep the connection open, so an answer ends when its Content-Length has arrived.
      const settleIfComplete = (force: boolean) => {
        const headerEnd = data.indexOf('\r\n\r\n');
        if (settled || headerEnd === -1) return;
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(data.slice(0, headerEnd))?.[1] ?? -1);
        const body = data.slice(headerEnd + 4);
        if (!force && (length < 0 || Buffer.byteLength(body, 'latin1') < length)) return;
        settled = true;
        socket.destroy();
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), body });
      };
      socket.setEncoding('latin1');
      socket.on('data', (chunk) => {
        data += chunk;
        settleIfComplete(false);
      });
      socket.on('error', reject);
      socket.on('end', () => settleIfComplete(true));
      const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\n${extra.join('')}Connection: close\r\n\r\n`,
      );
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

  describe('request paths the gateway did not check are refused before routing, limits and forwarding', () => {
    // Each prefix reaches a different upstream (or the gateway's own routes); each trick tries to climb
    // out of it to a service's /metrics, /health or /dev/mail, which the forwarded URL parse would resolve.
    const PREFIXES = [
      '/api/auth/me',
      '/api/search',
      '/api/online-dip/abc',
      '/api/shared',
      '/api/ops/x',
      '/dev/mail',
      '/mf/search/x',
      '/mf/dashboard/x',
      '/dashboard',
    ];
    const TRICKS = [
      '\\..\\..\\..\\metrics',
      '/../../../metrics',
      '/%2e%2e/%2e%2e/%2e%2e/metrics',
      '/%2E%2E/%2E%2E/health',
      '/.%2e/.%2e/dev/mail',
      '%2f..%2f..%2fmetrics',
      '%5c..%5c..%5cmetrics',
      '/./metrics',
      '//metrics',
      '/%00/metrics',
      '/..',
    ];

    it.each(PREFIXES)(
      'refuses every encoding of a climb out of %s, and no upstream sees it',
      async (prefix) => {
        const g = await gateway({ MAIL_CATCHER_ENABLED: 'true' });
        seenByUpstream.length = 0;
        for (const trick of TRICKS) {
          const res = await rawGet(g.url, `${prefix}${trick}`);
          expect({ target: `${prefix}${trick}`, status: res.status }).toEqual({
            target: `${prefix}${trick}`,
            status: 400,
          });
          expect(JSON.parse(res.body)).toEqual({ success: false, error: MALFORMED_PATH_MESSAGE });
        }
        expect(seenByUpstream).toEqual([]);
      },
    );

    it('does not count a refused path against any rate-limit bucket', async () => {
      // A window no other test here uses: the buckets live in the shared test Redis.
      const g = await gateway({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '7200' });
      for (let i = 0; i < 5; i++) expect((await rawGet(g.url, '/api/x\\..\\search')).status).toBe(400);
      expect((await rawGet(g.url, '/api/search')).status).toBe(200);
      expect((await rawGet(g.url, '/api/search')).status).toBe(200);
      expect((await rawGet(g.url, '/api/search')).status).toBe(429);
    });

    it('forwards ordinary paths unchanged, encoded slashes in the query included', async () => {
      const g = await gateway();
      seenByUpstream.length = 0;
      const target = '/api/search/a.b-c_d~e/%C3%A9?next=%2Fdashboard%2Fx&q=a.b';
      const res = await rawGet(g.url, target);
      expect(res.status).toBe(200);
      expect(seenByUpstream).toEqual([`identity ${target}`]);
    });
  });

  describe('state-changing calls from another site are refused before any service sees them', () => {
    const send = (url: string, method: string, headers: Record<string, string>, body?: string) =>
      fetch(`${url}/api/auth/logout-all`, { method, headers, body });

    it.each([
      ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
      ['a sibling subdomain (same-site is not same-origin)', { 'sec-fetch-site': 'same-site' }],
      ['a foreign Origin', { origin: 'https://evil.example' }],
      ['an opaque Origin (sandboxed frame)', { origin: 'null' }],
      ['a foreign Origin on the public URL’s host but another scheme', { origin: 'https://localhost:8080' }],
    ])('refuses %s with 403', async (_label, headers) => {
      const g = await gateway({ PUBLIC_URL: 'http://localhost:8080' });
      seenByUpstream.length = 0;
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await send(g.url, method, { ...headers, 'content-type': 'application/json' }, '{}');
        expect({ method, status: res.status }).toEqual({ method, status: 403 });
        expect(await res.json()).toEqual({ success: false, error: CROSS_SITE_MESSAGE });
      }
      expect(seenByUpstream).toEqual([]);
    });

    it.each([
      ['text/plain', 'a=b'],
      ['application/x-www-form-urlencoded', 'a=b'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
      ],
    ])('refuses a %s body (what a cross-site form can send) with 415', async (type, body) => {
      const g = await gateway();
      seenByUpstream.length = 0;
      const res = await send(g.url, 'POST', { 'content-type': type }, body);
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ success: false, error: JSON_ONLY_MESSAGE });
      expect(seenByUpstream).toEqual([]);
    });

    it('forwards the site’s own calls, typed navigations, reads and clients that are not browsers', async () => {
      const g = await gateway({ PUBLIC_URL: 'http://localhost:8080' });
      const own = new URL(g.url);
      seenByUpstream.length = 0;
      const json = { 'content-type': 'application/json; charset=utf-8' };
      const allowed = [
        await send(g.url, 'POST', { ...json, 'sec-fetch-site': 'same-origin', origin: own.origin }, '{}'),
        await send(g.url, 'POST', { ...json, origin: 'http://localhost:8080' }, '{}'),
        await send(g.url, 'POST', { 'sec-fetch-site': 'none' }),
        await send(g.url, 'POST', json, '{}'),
        await send(g.url, 'POST', {}),
        await send(g.url, 'GET', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }),
      ];
      expect(allowed.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(seenByUpstream).toHaveLength(6);
    });
  });

  it('shows its /metrics only with the metrics token, and the details of /health only with the internal secret', async () => {
    const g = await gateway();
    const secret = g.config.INTERNAL_SECRET;
    const token = g.config.METRICS_TOKEN!;
    const metrics = await rawGet(g.url, '/metrics');
    expect(metrics.status).toBe(401);
    expect(metrics.body).not.toContain('http_request_duration');
    const scraped = await rawGet(g.url, '/metrics', { authorization: `Bearer ${token}` });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('http_request_duration');
    // The internal secret, which speaks as any user, is not what a scraper holds, and reads no metrics.
    for (const wrong of [secret, 'wrong-secret-0123456789']) {
      const refused = await rawGet(g.url, '/metrics', { authorization: `Bearer ${wrong}` });
      expect(refused.status).toBe(401);
      expect(refused.body).not.toContain('http_request_duration');
    }
    // The metrics token opens nothing the internal secret does.
    const presentingTheToken: Record<string, string>[] = [
      { authorization: `Bearer ${token}` },
      { 'x-internal-secret': token },
    ];
    for (const headers of presentingTheToken) {
      expect(JSON.parse((await rawGet(g.url, '/health', headers)).body)).toEqual({ status: 'ok' });
    }
    expect(JSON.parse((await rawGet(g.url, '/health')).body)).toEqual({ status: 'ok' });
    const detailed = JSON.parse((await rawGet(g.url, '/health', { 'x-internal-secret': secret })).body);
    expect(detailed).toMatchObject({ status: 'ok', service: 'gateway', checks: { redis: { status: 'ok' } } });
  });
});
