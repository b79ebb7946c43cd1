// The all-in-one host runs real services beside one another in one process: a handler that throws
// or a consumer that fails in one of them does not take the others down, each keeps its own port,
// and the gateway reaches them without a socket.
import { PLATFORM_PROCESSES, createEnvelope } from '@lsp/contracts';
import {
  type ServiceDefinition,
  ServiceMetrics,
  baseConfigSchema,
  defineService,
  openEventBus,
} from '@lsp/service-kit';
import {
  TEST_SECRETS,
  type TestMongo,
  type TestRedis,
  freePort,
  leaseRedisDb,
  startTestMongo,
  waitFor,
} from '@lsp/testing';
import { searchService } from '@lsp/search/processes';
import Fastify from 'fastify';
import { type AllInOne, HOSTED_DEFINITIONS, registryDefinitions, startAllInOne } from '../src/host';

const FAULTY_EVENT = 'test.faulty.happened';

/**
 * A service in the identity service's place (so the gateway routes /api/auth to it) whose every
 * handler and consumer fails: one route throws, another publishes an event its own consumer refuses.
 */
function faultyService(failures: { count: number }): ServiceDefinition<typeof baseConfigSchema> {
  return defineService({
    name: 'identity',
    configSchema: baseConfigSchema,
    dbName: 'faulty',
    build: async (runtime) => {
      const bus = openEventBus(runtime);
      bus.subscribe({
        consumerGroup: 'faulty',
        types: [FAULTY_EVENT],
        handler: async () => {
          failures.count += 1;
          throw new Error('a consumer that fails');
        },
      });
      await bus.start();
      const app = Fastify();
      app.get('/alive', async () => ({ status: 'ok' }));
      app.get('/api/auth/me', async () => {
        throw new Error('a handler that throws');
      });
      app.post('/api/auth/login', async () => {
        await bus.publish(createEnvelope('identity', { type: FAULTY_EVENT, subject: 'x', data: {} }));
        return { published: true };
      });
      return app;
    },
  });
}

const BRIDGING = {
  projectName: 'Chapel Street refinance',
  bridgingType: 'bridgingPurchaseOrRefinance',
  propertyLocation: 'London',
  propertyClass: 'Residential',
  currentValue: 650000,
  purchasePrice: 600000,
  purchaseCosts: 25000,
  ownOrPurchase: 'Purchasing',
  landOrProperty: 'Property',
  loanTerm: 12,
  maxLoanRequired: false,
  netLoanRequired: 350000,
};

/** A service's metrics when it runs alone, for comparison. */
const aloneMetrics = () => new ServiceMetrics('alone');

describe('the all-in-one host', () => {
  let mongo: TestMongo;
  let redis: TestRedis;
  let host: AllInOne;
  const failures = { count: 0 };
  const ports = new Map<string, number>();

  beforeAll(async () => {
    mongo = await startTestMongo();
    redis = await leaseRedisDb();
    for (const name of ['identity', 'search', 'gateway']) ports.set(name, await freePort());
    const gatewayUrl = `http://localhost:${ports.get('gateway')}`;
    host = await startAllInOne({
      env: {
        ...TEST_SECRETS,
        MONGO_URL: mongo.url,
        REDIS_URL: redis.url,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: gatewayUrl,
      },
      portOf: (name) => ports.get(name)!,
      definitions: [faultyService(failures), searchService],
      staticDists: {},
    });
  });

  afterAll(async () => {
    await host?.close();
    await redis.release();
    await mongo.stop();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${host.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://localhost:${ports.get('gateway')}` },
      body: JSON.stringify(body),
    });

  it('answers a search through the gateway, the search service reached in the process', async () => {
    const res = await post('/api/bridging', BRIDGING);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.data.Results.length).toBeGreaterThan(0);
  });

  it('answers 500 for a handler that throws in one service; the others keep answering', async () => {
    const thrown = await fetch(`${host.url}/api/auth/me`);
    expect(thrown.status).toBe(500);
    expect((await thrown.json()).message).toBe('a handler that throws');
    expect((await post('/api/bridging', BRIDGING)).status).toBe(200);
  });

  it('retries a failing consumer in its own service, and the other services keep answering', async () => {
    expect((await post('/api/auth/login', {})).status).toBe(200);
    await waitFor(() => failures.count >= 2, 'the faulty consumer to fail twice', 20_000);
    expect((await post('/api/bridging', BRIDGING)).status).toBe(200);
    const health = await fetch(`http://127.0.0.1:${ports.get('search')}/health`);
    expect(health.status).toBe(200);
  });

  it('keeps each service on its own port, with its own metrics and database', async () => {
    const alive = await fetch(`http://127.0.0.1:${ports.get('search')}/alive`);
    expect(alive.status).toBe(200);
    expect(host.services.map((s) => s.name)).toEqual(['identity', 'search']);
    expect(host.services.every((s) => s.runtime.sharesProcess)).toBe(true);
    expect(host.services[0]!.runtime.metrics).not.toBe(host.services[1]!.runtime.metrics);
    // Each its own database, on one client (one pool and one server monitor for all).
    const [faulty, search] = host.services.map((s) => s.runtime.mongo);
    expect([faulty!.name, search!.name]).toEqual(['faulty', 'search']);
    expect(faulty!.getClient()).toBe(search!.getClient());
    // The process's own figures are the one process's: no service reports them again.
    for (const { runtime } of host.services)
      expect(runtime.metrics.registry.getSingleMetric('process_cpu_user_seconds_total')).toBeUndefined();
    expect(aloneMetrics().registry.getSingleMetric('process_cpu_user_seconds_total')).toBeDefined();
  });
});

describe('the all-in-one host and the process registry', () => {
  it('has a definition for every service and worker of the registry, under its name', () => {
    const registered = PLATFORM_PROCESSES.filter((p) => p.kind === 'service' || p.kind === 'worker')
      .map((p) => p.name)
      .filter((name) => name !== 'gateway');
    expect(registryDefinitions().map((d) => d.name)).toEqual(registered);
    for (const [name, definition] of Object.entries(HOSTED_DEFINITIONS)) expect(definition.name).toBe(name);
  });
});
