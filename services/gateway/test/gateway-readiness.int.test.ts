import { PLATFORM_VERSION, ServiceMetrics, createLogger } from '@lsp/service-kit';
import { type TestRedis, leaseRedisDb } from '@lsp/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildGateway } from '../src/app';
import { gatewayConfigSchema } from '../src/config';

/** What an operator's tools send: the gateway shows its health details to nobody else. */
const OPERATOR = { authorization: 'Bearer test-internal-secret-0123456789' };
/** What a scraper sends: the metrics token, which reads /metrics and nothing else. */
const METRICS_TOKEN = 'test-metrics-token-0123456789';
const SCRAPER = { authorization: `Bearer ${METRICS_TOKEN}` };

/** The gauge lines of the gateway's /metrics, e.g. { identity: 1, dip: 0 }. */
async function upstreamGauges(gateway: FastifyInstance): Promise<Record<string, number>> {
  const text = (
    await gateway.inject({
      method: 'GET',
      url: '/metrics',
      headers: SCRAPER,
    })
  ).body;
  const gauges: Record<string, number> = {};
  for (const match of text.matchAll(/^gateway_upstream_up\{[^}]*upstream="([a-z]+)"[^}]*\} (\d)$/gm)) {
    gauges[match[1]] = Number(match[2]);
  }
  return gauges;
}

describe('gateway readiness and upstream state', () => {
  let upstream: FastifyInstance;
  let testRedis: TestRedis;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    upstream = Fastify();
    upstream.get('/alive', async () => ({ status: 'ok' }));
    await upstream.listen({ host: '127.0.0.1', port: 0 });
    const alive = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    testRedis = await leaseRedisDb();
    const config = gatewayConfigSchema.parse({
      INTERNAL_SECRET: 'test-internal-secret-0123456789',
      METRICS_TOKEN,
      COOKIE_SECRET: 'c'.repeat(32),
      IDENTITY_URL: alive,
      SEARCH_URL: alive,
      SHARING_URL: alive,
      NOTIFICATIONS_URL: alive,
      // nothing listens on port 9 of loopback: the DIP service is down
      DIP_URL: 'http://127.0.0.1:9',
    });
    gateway = buildGateway({
      config,
      logger: createLogger('gateway', 'silent'),
      metrics: new ServiceMetrics('gateway'),
      redis: testRedis.redis,
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await testRedis.release();
  });

  it('stays ready while an upstream service is down, checking only itself and its Redis', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/health', headers: OPERATOR });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      service: 'gateway',
      version: PLATFORM_VERSION,
      checks: { redis: { status: 'ok' } },
    });
  });

  it('publishes each upstream as gateway_upstream_up: 1 when it answers, 0 when it is down', async () => {
    // Reading the metrics probes every upstream: the first read already has every answer.
    expect(await upstreamGauges(gateway)).toEqual({
      identity: 1,
      search: 1,
      dip: 0,
      sharing: 1,
      notifications: 1,
    });
  });

  it('is not ready when its own Redis is gone', async () => {
    const lost = await leaseRedisDb();
    const config = gatewayConfigSchema.parse({
      INTERNAL_SECRET: 'test-internal-secret-0123456789',
      METRICS_TOKEN,
      COOKIE_SECRET: 'c'.repeat(32),
    });
    const orphan = buildGateway({
      config,
      logger: createLogger('gateway', 'silent'),
      metrics: new ServiceMetrics('gateway'),
      redis: lost.redis,
    });
    await orphan.ready();
    await lost.release();
    try {
      const res = await orphan.inject({ method: 'GET', url: '/health', headers: OPERATOR });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.redis.status).toBe('down');
    } finally {
      await orphan.close();
    }
  });
});
