import { ServiceMetrics, createLogger, createServiceApp } from '../src';

const SECRET = 'a-test-internal-secret-0123456789';

function app() {
  const service = createServiceApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    metrics: new ServiceMetrics('test'),
    healthChecks: [],
    internalSecret: SECRET,
  });
  service.get('/who', async (request) => ({ id: request.id, address: request.clientAddress }));
  return service;
}

describe('what a service believes about a request', () => {
  it('keeps a well-formed x-request-id and replaces anything else with a new id', async () => {
    const service = app();
    const ask = async (id: string) =>
      (await service.inject({ url: '/who', headers: { 'x-request-id': id } })).json().id as string;
    expect(await ask('3f2c9a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60')).toBe('3f2c9a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60');
    for (const bad of [
      'short',
      'x'.repeat(65),
      'evil\nlog-line',
      '<script>alert(1)</script>',
      'a b c d e f g h',
    ]) {
      const id = await ask(bad);
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('counts the forwarded client address only from the gateway (its secret), never from whoever connects', async () => {
    const service = app();
    const address = async (headers: Record<string, string>) =>
      (await service.inject({ url: '/who', headers, remoteAddress: '10.1.2.3' })).json().address as string;
    expect(await address({ 'x-forwarded-for': '203.0.113.9' })).toBe('10.1.2.3');
    expect(
      await address({ 'x-forwarded-for': '203.0.113.9', 'x-internal-secret': 'wrong-secret-0123456789' }),
    ).toBe('10.1.2.3');
    expect(await address({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1', 'x-internal-secret': SECRET })).toBe(
      '203.0.113.9',
    );
  });
});
