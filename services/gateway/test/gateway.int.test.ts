import { createLogger, ServiceMetrics } from '@lsp/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { leaseRedisDb, type TestRedis } from '@lsp/testing';
import type { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { buildGateway } from '../src/app';
import { gatewayConfigSchema } from '../src/config';

const INTERNAL_SECRET = 'test-internal-secret-0123456789';

/** An upstream that echoes what the gateway forwarded to it. */
async function startEchoUpstream(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.all('/*', async (request) => ({
    path: request.url,
    headers: request.headers,
    body: request.body ?? null,
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

describe('gateway', () => {
  let echo: { app: FastifyInstance; url: string };
  let testRedis: TestRedis;
  let redis: Redis;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    echo = await startEchoUpstream();
    testRedis = await leaseRedisDb();
    redis = testRedis.redis;
    const config = gatewayConfigSchema.parse({
      INTERNAL_SECRET,
      COOKIE_SECRET: 'c'.repeat(32),
      IDENTITY_URL: echo.url,
      SEARCH_URL: echo.url,
      // nothing listens on port 9 of loopback: a service that is down
      DIP_URL: 'http://127.0.0.1:9',
      UPSTREAM_TIMEOUT_MS: '2000',
    });
    gateway = buildGateway({
      config,
      logger: createLogger('gateway', 'silent'),
      metrics: new ServiceMetrics('gateway'),
      redis,
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway.close();
    await echo.app.close();
    await testRedis.release();
  });

  it('forwards an /api call to its owning service with a request id and the internal secret', async () => {
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/development',
      payload: { projectName: 'A' },
    });
    expect(res.statusCode).toBe(200);
    const echoed = res.json();
    expect(echoed.path).toBe('/api/development');
    expect(echoed.body).toEqual({ projectName: 'A' });
    expect(echoed.headers['x-request-id']).toBe(res.headers['x-request-id']);
    expect(echoed.headers['x-internal-secret']).toBe(INTERNAL_SECRET);
  });

  it('drops identity headers a client sends itself', async () => {
    const res = await gateway.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-user-id': 'someone-else', 'x-user-email': 'x@y.z', 'x-internal-secret': 'guess' },
    });
    const echoed = res.json();
    expect(echoed.headers['x-user-id']).toBeUndefined();
    expect(echoed.headers['x-user-email']).toBeUndefined();
    expect(echoed.headers['x-internal-secret']).toBe(INTERNAL_SECRET);
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: 'No API route for GET /api/nothing-here' });
  });

  it('answers with a clear JSON error when the owning service is down', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/online-dip/user/u1' });
    expect([502, 503]).toContain(res.statusCode);
    expect(res.json().error).toBe('The DIP service is temporarily unavailable. Please try again shortly.');
  });

  it('serves the remotes registry from its configuration', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/remotes.json' });
    expect(res.json()).toEqual([
      { name: 'search', entry: '/mf/search/mf-manifest.json' },
      { name: 'dashboard', entry: '/mf/dashboard/mf-manifest.json' },
    ]);
  });
});
