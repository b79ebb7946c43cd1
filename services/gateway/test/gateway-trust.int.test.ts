import net from 'node:net';
import {
  CookieClient,
  type Listening,
  type TestRedis,
  leaseRedisDb,
  listen,
  signedInClient,
} from '@lsp/testing';
import Fastify from 'fastify';
import { PER_USER_CACHE_CONTROL } from '../src/security-headers';
import { SESSION_UNAVAILABLE_MESSAGE, SESSION_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../src/session';
import { type TestGateway, startTestGateway } from './test-gateway';

jest.setTimeout(60_000);

/** Every request each echo upstream was sent: method, path, content type and body. */
const seen: Array<{ upstream: string; method: string; path: string; type?: string; body: string }> = [];

/** An upstream that answers what it was sent, and `cache-control` when asked to by `?cache=`. */
async function startEcho(name: string): Promise<Listening> {
  const app = Fastify();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    if (request.url === '/alive') return { status: 'ok' };
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? '');
    seen.push({
      upstream: name,
      method: request.method,
      path: request.url,
      type: request.headers['content-type'],
      body,
    });
    const cache = (request.query as { cache?: string }).cache;
    if (cache) reply.header('cache-control', cache);
    return {
      upstream: name,
      user: request.headers['x-user-id'] ?? null,
      traceparent: request.headers.traceparent ?? null,
    };
  });
  return listen(app);
}

/**
 * A TCP relay in front of Redis that can go silent (connections stay open, nothing passes: a paused
 * or partitioned Redis) or be cut (connections closed, new ones refused).
 */
async function startRedisRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let silent = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    const relay = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (!silent) to.write(chunk);
      });
    relay(client, upstream);
    relay(upstream, client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target.toString());
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    goSilent: () => {
      silent = true;
    },
    cut: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}

/**
 * A POST of `bytes` of body written on the wire as a client that sends before it reads does (curl),
 * chunked or with its Content-Length; what came back, and whether the connection failed under it.
 */
function uploadWithoutReading(baseUrl: string, path: string, bytes: number, chunked: boolean) {
  return new Promise<{ status: number; body: string; failure: string | null }>((resolve) => {
    const { hostname, port } = new URL(baseUrl);
    const socket = net.connect(Number(port), hostname);
    let data = '';
    const settle = (failure: string | null) => {
      const headerEnd = data.indexOf('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0),
        body: headerEnd < 0 ? '' : data.slice(headerEnd + 4),
        failure,
      });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', (err: NodeJS.ErrnoException) => settle(err.code ?? err.message));
    socket.on('end', () => settle(null));
    const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bytes}`;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`,
    );
    const piece = 'x'.repeat(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += piece.length;
        const more = socket.write(chunked ? `${piece.length.toString(16)}\r\n${piece}\r\n` : piece);
        if (!more) return void socket.once('drain', pump);
      }
      if (chunked) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

describe('what the gateway owes callers: caching, one-click unsubscribe, body limits, Redis outages', () => {
  let redis: TestRedis;
  let identity: Listening;
  let notifications: Listening;
  const gateways: TestGateway[] = [];

  const gateway = async (env: Record<string, string> = {}, redisUrl = redis.url) => {
    const started = await startTestGateway({
      redisUrl,
      upstreams: {
        identity: identity.url,
        search: identity.url,
        dip: identity.url,
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
    notifications = await startEcho('notifications');
  });

  afterAll(async () => {
    for (const g of gateways) await g.close();
    await identity.close();
    await notifications.close();
    await redis.release();
  });

  describe("a client's trace context", () => {
    it('is not passed on: a call to a service carries only the trace context the gateway sets', async () => {
      const g = await gateway();
      const res = await fetch(`${g.url}/api/auth/me`, {
        headers: {
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
          tracestate: 'vendor=1',
        },
      });
      // Tracing is off in this process, so the gateway sets none and the service sees none.
      expect(await res.json()).toMatchObject({ upstream: 'identity', traceparent: null });
    });
  });

  describe('answers about a person are kept by no cache', () => {
    it('sends Cache-Control: private, no-store on every /api answer, signed in or not', async () => {
      const g = await gateway();
      const { client } = await signedInClient(g, redis, { email: 'ann@example.com', name: 'Ann' });
      const anonymous = new CookieClient(g.url);
      const answers = [
        await client.get('/api/auth/me'),
        await client.get('/api/user-searches/someone'),
        await client.post('/api/bridging', {}),
        await anonymous.get('/api/auth/me'),
        await anonymous.get('/api/no-such-route'),
        // A service's own public policy does not outlive the gateway: the answer may be about someone.
        await client.get('/api/auth/me?cache=public,%20max-age=600'),
      ];
      expect(answers.map((answer) => answer.headers.get('cache-control'))).toEqual(
        answers.map(() => PER_USER_CACHE_CONTROL),
      );
    });

    it('keeps a private policy a service chose, and leaves the documentation and pages alone', async () => {
      const g = await gateway();
      const client = new CookieClient(g.url);
      const online = await client.get('/api/online-dip/ABC?cache=private,%20max-age=60');
      expect(online.headers.get('cache-control')).toBe('private, max-age=60');
      const docs = await client.get('/api/docs/openapi.json');
      expect(docs.status).toBe(200);
      expect(docs.headers.get('cache-control')).toBe('public, max-age=300');
      expect((await client.get('/remotes.json')).headers.get('cache-control')).toBe('no-cache');
    });
  });

  describe('one-click unsubscribe (RFC 8058)', () => {
    it("passes a mail provider's form-encoded POST to the unsubscribe URL on to notifications", async () => {
      const g = await gateway();
      seen.length = 0;
      const res = await fetch(`${g.url}/api/alerts/unsubscribe?token=abc`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(res.status).toBe(200);
      expect(seen).toEqual([
        {
          upstream: 'notifications',
          method: 'POST',
          path: '/api/alerts/unsubscribe?token=abc',
          type: 'application/x-www-form-urlencoded',
          body: 'List-Unsubscribe=One-Click',
        },
      ]);
    });

    it('still refuses a form-encoded body anywhere else, and other non-JSON bodies there', async () => {
      const g = await gateway();
      seen.length = 0;
      const post = (path: string, type: string) =>
        fetch(`${g.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body: 'a=b' });
      expect((await post('/api/alerts/settings', 'application/x-www-form-urlencoded')).status).toBe(415);
      expect((await post('/api/alerts/unsubscribe/x', 'application/x-www-form-urlencoded')).status).toBe(415);
      expect((await post('/api/alerts/unsubscribe?token=abc', 'text/plain')).status).toBe(415);
      expect(
        (await post('/api/alerts/unsubscribe?token=abc', 'multipart/form-data; boundary=x')).status,
      ).toBe(415);
      expect(seen).toEqual([]);
    });
  });

  describe('a signed-in caller while Redis is out', () => {
    it('is answered 503 with Retry-After when Redis has gone silent, not held and not signed out', async () => {
      const relay = await startRedisRelay(new URL(redis.url));
      const g = await gateway({}, relay.url);
      try {
        const { client } = await signedInClient(g, redis, { email: 'bo@example.com', name: 'Bo' });
        const before = await client.get('/api/auth/me');
        expect(before.json().user).toMatch(/^user-/);
        relay.goSilent();
        const during = await client.get('/api/auth/me');
        expect(during.status).toBe(503);
        expect(during.json()).toEqual({
          success: false,
          error: SESSION_UNAVAILABLE_MESSAGE,
          retryAfterSeconds: SESSION_UNAVAILABLE_RETRY_AFTER_SECONDS,
        });
        expect(during.headers.get('retry-after')).toBe(String(SESSION_UNAVAILABLE_RETRY_AFTER_SECONDS));
        // Without a session cookie nothing waits on Redis: an anonymous search goes through.
        const anonymous = await new CookieClient(g.url).post('/api/bridging', {});
        expect(anonymous.status).toBe(200);
        expect(anonymous.json()).toMatchObject({ upstream: 'identity', user: null });
      } finally {
        // Its Redis is gone for good: stop the client reconnecting to it.
        g.redis.disconnect();
        await relay.close();
      }
    });

    it('is answered 503 with Retry-After when the connection to Redis is gone', async () => {
      const relay = await startRedisRelay(new URL(redis.url));
      const g = await gateway({}, relay.url);
      try {
        const { client } = await signedInClient(g, redis, { email: 'cy@example.com', name: 'Cy' });
        expect((await client.get('/api/auth/me')).status).toBe(200);
        seen.length = 0;
        relay.cut();
        const during = await client.get('/api/auth/me');
        expect(during.status).toBe(503);
        expect(during.json().error).toBe(SESSION_UNAVAILABLE_MESSAGE);
        expect(during.headers.get('retry-after')).toBe(String(SESSION_UNAVAILABLE_RETRY_AFTER_SECONDS));
        expect(seen).toEqual([]);
      } finally {
        // Its Redis is gone for good: stop the client reconnecting to it.
        g.redis.disconnect();
        await relay.close();
      }
    });
  });

  it.each([
    ['chunked', true],
    ['with its Content-Length', false],
  ])(
    'answers a body over the limit sent %s with a JSON 413 the client receives, not a reset',
    async (_how, chunked) => {
      const g = await gateway();
      seen.length = 0;
      // Eight times the 1 MiB limit: more than the sockets' buffers hold, so the client is still sending.
      const answer = await uploadWithoutReading(g.url, '/api/bridging', 8 * 1024 * 1024, chunked);
      expect(answer).toMatchObject({ status: 413, failure: null });
      expect(answer.body).toContain('"success":false');
      expect(seen).toEqual([]);
    },
  );
});
