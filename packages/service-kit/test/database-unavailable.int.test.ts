import { type EmbeddedMongo, startEmbeddedMongo } from '@lsp/embedded-mongo';
import type { Connection } from 'mongoose';
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  ServiceMetrics,
  connectMongo,
  createLogger,
  createRedis,
  createServiceApp,
} from '../src';

jest.setTimeout(60_000);

describe('a service whose MongoDB or Redis is gone', () => {
  let server: EmbeddedMongo;
  let connection: Connection;

  beforeAll(async () => {
    server = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
    connection = await connectMongo(server.uri, 'outage', createLogger('outage-test', 'silent'));
  });

  afterAll(async () => {
    await connection?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
  });

  it('answers a call that needs it 503 with Retry-After and words to try again, not a masked 500', async () => {
    const app = createServiceApp({
      name: 'outage-test',
      logger: createLogger('outage-test', 'silent'),
      metrics: new ServiceMetrics('outage_test'),
    });
    app.get('/things', async () => ({ thing: await connection.collection('things').findOne({}) }));
    await app.ready();
    try {
      await connection.collection('things').insertOne({ name: 'first' });
      const before = await app.inject({ method: 'GET', url: '/things' });
      expect(before.statusCode).toBe(200);
      expect(before.json().thing.name).toBe('first');

      await server.stop();
      const during = await app.inject({ method: 'GET', url: '/things' });
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(during.json()).toEqual({
        success: false,
        error: DATABASE_UNAVAILABLE_MESSAGE,
        retryAfterSeconds: DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS,
      });
    } finally {
      await app.close();
    }
  });

  it('answers a call that needs its Redis, while Redis is down, 503 with Retry-After as well', async () => {
    // Nothing listens on port 9 of loopback: this service's Redis is down.
    const redis = createRedis('redis://127.0.0.1:9', 'producer');
    const app = createServiceApp({
      name: 'outage-test',
      logger: createLogger('outage-test', 'silent'),
      metrics: new ServiceMetrics('outage_test'),
    });
    app.get('/counter', async () => ({ count: await redis.incr('counter') }));
    await app.ready();
    try {
      const during = await app.inject({ method: 'GET', url: '/counter' });
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(during.json().error).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    } finally {
      await app.close();
      redis.disconnect();
    }
  });
});
