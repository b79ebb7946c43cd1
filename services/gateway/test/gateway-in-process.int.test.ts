// The all-in-one host's gateway reaches the services in its process by a direct dispatch to their
// apps: the same identity checks, headers, body and answers as over HTTP, and the same clear errors.
import { createLogger, ServiceMetrics } from '@lsp/service-kit';
import { leaseRedisDb, type TestRedis } from '@lsp/testing';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildGateway } from '../src/app';
import { gatewayConfigSchema } from '../src/config';

const INTERNAL_SECRET = 'test-internal-secret-0123456789';
/** Nothing listens on port 9 of loopback: were a call to go over a socket, it would fail. */
const NO_SOCKET = 'http://127.0.0.1:9';

/** The event stream the upstream holds open: the test writes to it and learns when it closes. */
const eventStream: { response?: http.ServerResponse; closed?: Promise<unknown> } = {};

/**
 * An in-process upstream that echoes what it was handed, one route that never answers in time and
 * one event stream that stays open.
 */
function echoUpstream(): FastifyInstance {
  const app = Fastify();
  app.get('/api/auth/events', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    reply.raw.write('data: first\n\n');
    eventStream.response = reply.raw;
    eventStream.closed = once(reply.raw, 'close');
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.get(
    '/api/auth/slow',
    async () => new Promise((resolve) => setTimeout(() => resolve({}), 3000).unref()),
  );
  app.get('/api/auth/boom', async () => {
    throw new Error('a handler that throws');
  });
  app.all('/*', async (request, reply) => {
    reply.header('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
    reply.header('x-upstream', 'identity');
    return reply.status(201).send({
      method: request.method,
      path: request.url,
      headers: request.headers,
      body: request.body ?? null,
    });
  });
  return app;
}

describe('gateway with in-process upstreams', () => {
  let testRedis: TestRedis;
  let upstream: FastifyInstance;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    testRedis = await leaseRedisDb();
    upstream = echoUpstream();
    const config = gatewayConfigSchema.parse({
      INTERNAL_SECRET,
      COOKIE_SECRET: 'c'.repeat(32),
      IDENTITY_URL: NO_SOCKET,
      SEARCH_URL: NO_SOCKET,
      SHELL_URL: NO_SOCKET,
      UPSTREAM_TIMEOUT_MS: '500',
    });
    gateway = buildGateway({
      config,
      logger: createLogger('gateway', 'silent'),
      metrics: new ServiceMetrics('gateway'),
      redis: testRedis.redis,
      inProcess: { identity: upstream, shell: upstream },
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await testRedis.release();
  });

  it('passes the body as sent, the internal secret and request id, and the answer back whole', async () => {
    const body = '{"email":"a@b.c","n":1e400}';
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/auth/login?x=1',
      headers: {
        'content-type': 'application/json',
        'x-user-id': 'someone-else',
        'x-internal-secret': 'guess',
      },
      payload: body,
    });
    expect(res.statusCode).toBe(201);
    const echoed = res.json();
    expect(echoed).toMatchObject({ method: 'POST', path: '/api/auth/login?x=1', body });
    expect(echoed.headers['x-internal-secret']).toBe(INTERNAL_SECRET);
    expect(echoed.headers['x-user-id']).toBeUndefined();
    expect(echoed.headers['x-request-id']).toBe(res.headers['x-request-id']);
    expect(res.headers['x-upstream']).toBe('identity');
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    // The gateway's own headers still go on every answer.
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('serves a page from an in-process static server with the headers as sent, no internal secret', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/dashboard', headers: { 'x-user-id': 'u' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().headers['x-internal-secret']).toBeUndefined();
    expect(res.json().headers['x-user-id']).toBe('u');
  });

  it('answers 500 for a handler that throws, and the next call still works', async () => {
    const boom = await gateway.inject({ method: 'GET', url: '/api/auth/boom' });
    expect(boom.statusCode).toBe(500);
    const next = await gateway.inject({ method: 'GET', url: '/api/auth/me' });
    expect(next.statusCode).toBe(201);
  });

  it('answers a slow in-process service with a JSON 504 after UPSTREAM_TIMEOUT_MS', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/auth/slow' });
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({
      success: false,
      error: 'The account service took too long to answer. Please try again.',
    });
  });

  it('streams an event stream event by event past UPSTREAM_TIMEOUT_MS, and lets it go when the caller does', async () => {
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    const { port } = gateway.server.address() as AddressInfo;
    const request = http.get({ host: '127.0.0.1', port, path: '/api/auth/events' });
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    const chunks = response[Symbol.asyncIterator]();
    expect(String((await chunks.next()).value)).toBe('data: first\n\n');

    // Longer than the gateway's upstream timeout (500 ms): an open stream is not a slow answer.
    await new Promise((resolve) => setTimeout(resolve, 700));
    eventStream.response!.write('data: second\n\n');
    expect(String((await chunks.next()).value)).toBe('data: second\n\n');
    expect(eventStream.response!.destroyed).toBe(false);

    request.destroy();
    await eventStream.closed;
    expect(eventStream.response!.destroyed).toBe(true);
  });

  it('still reaches an upstream left out of the process over HTTP (here: down, a JSON 502)', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/online-dip/user/u1' });
    expect([502, 503]).toContain(res.statusCode);
    expect(res.json().success).toBe(false);
  });
});
