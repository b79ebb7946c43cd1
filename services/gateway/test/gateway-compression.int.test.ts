// The gateway compresses answers worth it when the client accepts it, whether the service answered
// over HTTP or in the gateway's own process, and leaves alone what is small, compressed already or
// streamed as events.
import { createLogger, ServiceMetrics } from '@lsp/service-kit';
import { leaseRedisDb, type TestRedis } from '@lsp/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { buildGateway } from '../src/app';
import { COMPRESSION_THRESHOLD_BYTES, COMPRESS_ON_LOOP_MAX_BYTES } from '../src/compression';
import { gatewayConfigSchema } from '../src/config';

/** Nothing listens on port 9 of loopback: were a call to go over a socket, it would fail. */
const NO_SOCKET = 'http://127.0.0.1:9';

/** About the size of a search answer with every lender's offer. */
const offers = Array.from({ length: 120 }, (_, i) => ({
  lenderId: `lender-${i}`,
  lenderName: `Lender number ${i}`,
  product: i % 2 ? 'Development finance' : 'Bridging loan',
  grossLoan: 1_000_000 + i * 1_250,
  interestRatePercent: 7 + (i % 13) / 10,
  arrangementFeePercent: 2,
  termMonths: 18,
  lendable: i % 7 !== 0,
  reasons: i % 7 === 0 ? ['Loan to gross development value above the lender maximum'] : [],
}));

function upstreamApp(): FastifyInstance {
  const app = Fastify();
  app.get('/api/auth/big', async () => ({ success: true, data: { offers } }));
  app.get('/api/auth/huge', async () => ({
    success: true,
    data: { offers: [...offers, ...offers, ...offers, ...offers] },
  }));
  app.get('/api/auth/small', async () => ({ success: true, data: { ok: true } }));
  app.get('/api/auth/pdf', async (_request, reply) =>
    reply.type('application/pdf').send(Buffer.from('%PDF-1.7\n'.padEnd(4000, 'x'))),
  );
  app.get('/api/auth/events', async (_request, reply) =>
    reply.type('text/event-stream; charset=utf-8').send(`data: ${'{"event":"x"}'.repeat(200)}\n\n`),
  );
  // Declares more than it sends, then drops the connection: a service that fails mid-answer.
  app.get('/api/auth/cut', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
    reply.raw.write('{"success":true,"data":');
    setTimeout(() => reply.raw.destroy(), 20);
  });
  return app;
}

async function gatewayFor(identityUrl: string, inProcess: Record<string, FastifyInstance>, redis: TestRedis) {
  const config = gatewayConfigSchema.parse({
    INTERNAL_SECRET: 'test-internal-secret-0123456789',
    COOKIE_SECRET: 'c'.repeat(32),
    IDENTITY_URL: identityUrl,
    UPSTREAM_TIMEOUT_MS: '2000',
  });
  const gateway = buildGateway({
    config,
    logger: createLogger('gateway', 'silent'),
    metrics: new ServiceMetrics('gateway'),
    redis: redis.redis,
    inProcess,
  });
  await gateway.ready();
  return gateway;
}

describe.each(['over HTTP', 'in process'])('gateway compression, service reached %s', (how) => {
  let testRedis: TestRedis;
  let upstream: FastifyInstance;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    testRedis = await leaseRedisDb();
    upstream = upstreamApp();
    if (how === 'over HTTP') {
      await upstream.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
      gateway = await gatewayFor(url, {}, testRedis);
    } else {
      gateway = await gatewayFor(NO_SOCKET, { identity: upstream }, testRedis);
    }
  });

  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await testRedis.release();
  });

  const get = (url: string, acceptEncoding?: string) =>
    gateway.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('answers brotli when accepted, and the decoded body is the plain one', async () => {
    const plain = await get('/api/auth/big');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.length).toBeGreaterThan(10_000);

    const res = await get('/api/auth/big', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(zlib.brotliDecompressSync(res.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('compresses a body too large for the event loop on the thread pool, to the same bytes decoded', async () => {
    const plain = await get('/api/auth/huge');
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_ON_LOOP_MAX_BYTES);
    for (const [coding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await get('/api/auth/huge', coding);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(decode(res.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
  });

  it('answers gzip to a client that accepts only gzip', async () => {
    const plain = await get('/api/auth/big', 'identity');
    const res = await get('/api/auth/big', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('sends the body as it is when no encoding the gateway produces is accepted', async () => {
    for (const accepted of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await get('/api/auth/big', accepted);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json()).toEqual({ success: true, data: { offers } });
    }
  });

  it('leaves an answer under the threshold as it is', async () => {
    const res = await get('/api/auth/small', 'br, gzip');
    expect(res.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ success: true, data: { ok: true } });
  });

  it('never compresses a PDF or an event stream', async () => {
    const pdf = await get('/api/auth/pdf', 'br, gzip');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.rawPayload.subarray(0, 8).toString()).toBe('%PDF-1.7');
    const events = await get('/api/auth/events', 'br, gzip');
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body.startsWith('data: {"event":"x"}')).toBe(true);
  });

  it('compresses an answer of known length whole and sends it with its length, not as a stream', async () => {
    const res = await get('/api/auth/big', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString())).toEqual({
      success: true,
      data: { offers },
    });
  });

  // Only a socket can be cut: the in-process dispatch has none.
  if (how === 'over HTTP')
    it('answers a clear JSON 502 instead of a cut body', async () => {
      const res = await get('/api/auth/cut', 'br');
      expect(res.statusCode).toBe(502);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        success: false,
        error: 'The account service is temporarily unavailable. Please try again shortly.',
      });
    });

  it('keeps the security headers on a compressed answer', async () => {
    const res = await get('/api/auth/big', 'br');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['cache-control']).toBe('private, no-store');
  });
});
