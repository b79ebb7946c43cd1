// Metrics have their own credential: every process's /metrics answers only to the metrics token, which
// opens nothing else (identity headers, the gateway's health details), and may not be the internal secret.
import {
  ConfigError,
  ServiceMetrics,
  baseConfigSchema,
  createLogger,
  createServiceApp,
  identityHeaders,
  loadConfig,
} from '../src';

const INTERNAL_SECRET = 'internal-secret-0123456789abcdef';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function app(options: { metricsToken?: string; operationalSecret?: string } = {}) {
  const built = createServiceApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    metrics: new ServiceMetrics('test'),
    internalSecret: INTERNAL_SECRET,
    metricsToken: METRICS_TOKEN,
    ...options,
  });
  built.get('/api/me', async (request) => ({ caller: request.caller }));
  return built;
}

describe('the metrics token', () => {
  it('reads /metrics; no token, a wrong one or the internal secret get 401', async () => {
    const service = app();
    const scraped = await service.inject({ url: '/metrics', headers: bearer(METRICS_TOKEN) });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('process_cpu_user_seconds_total');
    for (const headers of [
      {},
      bearer('wrong-token-0123456789abcdef'),
      bearer(INTERNAL_SECRET),
      { 'x-internal-secret': METRICS_TOKEN },
    ]) {
      const refused = await service.inject({ url: '/metrics', headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(refused.body).not.toContain('process_cpu_user_seconds_total');
    }
    await service.close();
  });

  it('is asked for even where none is configured: /metrics then answers no one', async () => {
    const previous = process.env.METRICS_TOKEN;
    delete process.env.METRICS_TOKEN;
    try {
      const service = app({ metricsToken: undefined });
      expect((await service.inject({ url: '/metrics' })).statusCode).toBe(401);
      expect((await service.inject({ url: '/metrics', headers: bearer('') })).statusCode).toBe(401);
      await service.close();
    } finally {
      if (previous !== undefined) process.env.METRICS_TOKEN = previous;
    }
  });

  it('does not work as the internal secret: no identity is read with it, and no health details are shown', async () => {
    const service = app({ operationalSecret: INTERNAL_SECRET });
    const user = { userId: 'u-1', email: 'a@example.com', name: 'A', verified: true, roles: [] };
    const asMetricsToken = await service.inject({
      url: '/api/me',
      headers: identityHeaders(user, METRICS_TOKEN),
    });
    expect(asMetricsToken.json()).toEqual({ caller: null });
    const asGateway = await service.inject({
      url: '/api/me',
      headers: identityHeaders(user, INTERNAL_SECRET),
    });
    expect(asGateway.json().caller).toMatchObject({ userId: 'u-1' });
    for (const headers of [bearer(METRICS_TOKEN), { 'x-internal-secret': METRICS_TOKEN }]) {
      const health = await service.inject({ url: '/health', headers });
      expect(health.json()).toEqual({ status: 'ok' });
    }
    expect((await service.inject({ url: '/health', headers: bearer(INTERNAL_SECRET) })).json()).toMatchObject(
      {
        service: 'test',
      },
    );
    await service.close();
  });

  it('may not be the internal secret in any process configuration', () => {
    const env = { SERVICE_NAME: 'test', PORT: '4000', INTERNAL_SECRET };
    expect(loadConfig(baseConfigSchema, { ...env, METRICS_TOKEN }).METRICS_TOKEN).toBe(METRICS_TOKEN);
    expect(() => loadConfig(baseConfigSchema, { ...env, METRICS_TOKEN: INTERNAL_SECRET })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig(baseConfigSchema, { ...env, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
