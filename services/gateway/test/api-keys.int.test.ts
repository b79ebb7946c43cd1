// A broker's system with only an API key: search, save, create a DIP (once, with an Idempotency-Key),
// its PDF, share it, and receive the signed dip.created webhook at its own receiver; then revoked. Every service in-process behind one real gateway, events on Redis
// Streams. Another user's key reaches nothing of the owner's; bad input changes nothing.
import { createHmac } from 'node:crypto';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY_MESSAGES, type ApiKeyRecord, apiKeyLookupKey } from '@lsp/contracts';
import {
  OutboxRelay,
  Outbox,
  ProcessedEvents,
  RedisStreamsEventBus,
  ServiceMetrics,
  createQueue,
} from '@lsp/service-kit';
import {
  CookieClient,
  type Listening,
  TEST_SECRETS,
  type TestMongo,
  connectedRedis,
  freePort,
  listen,
  signedInClient,
  silentLogger,
  startTestMongo,
  waitFor,
} from '@lsp/testing';
import type { Redis } from 'ioredis';
import { type DipHarness, startDipHarness } from '../../dip/test/dip-harness';
import {
  type IdentityStack,
  registerVerified,
  signedInBrowser,
  startIdentityStack,
} from '../../identity/test/harness';
import { buildApp as buildNotificationsApp } from '../../notifications/src/app';
import { notificationsConfigSchema } from '../../notifications/src/config';
import { AlertStore } from '../../notifications/src/data/alerts';
import { subscribeToWebhookEvents } from '../../notifications/src/events/webhooks';
import {
  WEBHOOK_QUEUE,
  type WebhookJob,
  startWebhookWorker,
} from '../../notifications/src/webhooks/delivery';
import { WebhookStore } from '../../notifications/src/webhooks/store';
import { DEVELOPMENT_PAYLOAD } from '../../search/test/search-harness';
import { buildApp as buildSharingApp } from '../../sharing/src/app';
import { sharingConfigSchema } from '../../sharing/src/config';
import { ensureSharingIndexes, sharingCollections } from '../../sharing/src/data/collections';
import { sharingRepositories } from '../../sharing/src/data/repositories';
import { subscribeSharing } from '../../sharing/src/events/consumed';
import { SHARE_LINK_SECRET } from '../../sharing/test/sharing-harness';
import { API_KEY_UNAVAILABLE_MESSAGE } from '../src/api-keys';
import { IDEMPOTENCY_MESSAGES } from '../src/idempotency';
import { type TestGateway, startTestGateway } from './test-gateway';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery';
const EVIL_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

/** A client that sends only `Authorization: Bearer <key>`: no cookie, ever. */
function keyClient(url: string, key: string) {
  const client = new CookieClient(url);
  const withKey = (headers: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...headers });
  return {
    get: (path: string, headers?: Record<string, string>) => client.get(path, { headers: withKey(headers) }),
    post: (path: string, body: unknown, headers?: Record<string, string>) =>
      client.post(path, body, { headers: withKey(headers) }),
    put: (path: string, body: unknown) => client.request('PUT', path, { body, headers: withKey() }),
  };
}

describe('a broker system with an API key, through the gateway', () => {
  let dip: DipHarness;
  let identity: IdentityStack;
  let mongo: TestMongo;
  let gateway: TestGateway;
  let limitedGateway: TestGateway;
  let sharingServer: Listening;
  let sharingRedis: Redis;
  let bus: RedisStreamsEventBus;
  let relay: OutboxRelay;
  let counter = 0;
  const afterCleanup: Array<() => Promise<void>> = [];

  /** A verified account, signed in through identity: its browser and user id. */
  async function account(name: string) {
    const email = `broker${++counter}.${Date.now()}@example.co.uk`;
    await registerVerified(identity, { name, email, password: PASSWORD });
    const browser = await signedInBrowser(identity, email, PASSWORD);
    const me = (await browser.get('/api/auth/me')).json().user as { id: string };
    return { browser, userId: me.id, email };
  }

  async function keyFor(browser: CookieClient, body: Record<string, unknown> = { name: 'CRM' }) {
    const made = await browser.post('/api/api-keys', body);
    expect(made.status).toBe(201);
    return made.json() as { id: string; key: string };
  }

  beforeAll(async () => {
    const sharingPort = await freePort();
    dip = await startDipHarness({
      sharingUrl: `http://127.0.0.1:${sharingPort}`,
      pdfs: { get: async (d) => Buffer.from(`%PDF-1.7 test ${d.quoteCode}`) },
    });
    identity = await startIdentityStack({ redis: dip.redis, relayTo: dip.bus });
    mongo = await startTestMongo();
    const redisUrl = dip.redis.url;
    const prefix = (dip.bus as unknown as { prefix: string }).prefix;
    bus = new RedisStreamsEventBus({ redisUrl, prefix, blockMs: 100, claimIntervalMs: 500 });
    const sharingDb = await mongo.database('sharing');
    const outbox = await Outbox.open(sharingDb);
    await ensureSharingIndexes(sharingCollections(sharingDb));
    const repositories = sharingRepositories(sharingDb);
    subscribeSharing(bus, await ProcessedEvents.open(sharingDb), repositories, outbox);
    sharingRedis = await connectedRedis(redisUrl);
    sharingServer = await listen(
      buildSharingApp({
        config: sharingConfigSchema.parse({
          INTERNAL_SECRET: TEST_SECRETS.INTERNAL_SECRET,
          MONGO_URL: mongo.url,
          REDIS_URL: redisUrl,
          SHARE_LINK_SECRET,
          DIP_URL: dip.gateway.config.DIP_URL,
        }),
        logger: silentLogger(),
        metrics: new ServiceMetrics('sharing'),
        healthChecks: [],
        mongo: sharingDb,
        redis: sharingRedis,
        repositories,
        outbox,
      }),
      sharingPort,
    );
    // Notifications' webhooks: the routes, the consumer of dip.created and the delivery worker.
    const notificationsDb = await mongo.database('notifications');
    const webhookStore = new WebhookStore(notificationsDb);
    const webhookQueue = createQueue<WebhookJob>(WEBHOOK_QUEUE, redisUrl);
    const emailQueue = createQueue('email', redisUrl);
    subscribeToWebhookEvents(bus, { store: webhookStore, queue: webhookQueue });
    const webhookWorker = startWebhookWorker({
      store: webhookStore,
      alerts: new AlertStore(notificationsDb),
      emailQueue: emailQueue as never,
      logger: silentLogger(),
      redisUrl,
      prefix: 'bull',
      concurrency: 2,
      // The broker's receiver is on this machine's loopback.
      allowPrivateTargets: true,
      publicUrl: 'http://localhost:8080',
    });
    const notificationsServer = await listen(
      buildNotificationsApp({
        config: notificationsConfigSchema.parse({
          INTERNAL_SECRET: TEST_SECRETS.INTERNAL_SECRET,
          MONGO_URL: mongo.url,
          REDIS_URL: redisUrl,
          WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        }),
        logger: silentLogger(),
        metrics: new ServiceMetrics('notifications'),
        healthChecks: [],
        mongo: notificationsDb,
        webhookQueue,
      }),
    );
    afterCleanup.push(async () => {
      await notificationsServer.close();
      await webhookWorker.close();
      await webhookQueue.close();
      await emailQueue.close();
    });
    outbox.publishAtCommit({ bus: dip.bus });
    relay = new OutboxRelay({ outbox, bus: dip.bus, pollIntervalMs: 3600_000 });
    relay.start();
    await bus.start();
    const upstreams = {
      identity: identity.identityUrl,
      search: dip.gateway.config.SEARCH_URL,
      dip: dip.gateway.config.DIP_URL,
      sharing: sharingServer.url,
      notifications: notificationsServer.url,
    };
    gateway = await startTestGateway({
      redisUrl,
      upstreams,
      env: { RATE_LIMIT_MAX: '100000', RATE_LIMIT_AUTH_MAX: '100000' },
    });
    limitedGateway = await startTestGateway({
      redisUrl,
      upstreams,
      env: { API_KEY_RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '3600' },
    });
  });

  afterAll(async () => {
    for (const cleanup of afterCleanup) await cleanup();
    await gateway?.close();
    await limitedGateway?.close();
    await relay?.stop();
    await bus?.close();
    await sharingServer?.close();
    await sharingRedis?.quit();
    await identity?.close();
    await mongo?.stop();
    await dip?.close();
  });

  it('searches, saves, creates one DIP for two tries with one Idempotency-Key, gets its signed dip.created webhook, downloads its PDF, shares it; revoked, it stops', async () => {
    const owner = await account('Brenda Broker');
    const { key, id } = await keyFor(owner.browser);
    const crm = keyClient(gateway.url, key);

    // From another site's page it would be refused with a cookie; with a key there is no cookie to borrow.
    const searchData = { ...DEVELOPMENT_PAYLOAD, propertyAddress: '12 Mill Lane, Leeds' };
    const run = await crm.post('/api/development', { ...searchData, userId: owner.userId }, EVIL_SITE);
    expect(run.status).toBe(200);
    expect(run.headers.get('ratelimit-policy')).toBe('"api-key";q=600;w=60');
    expect(run.headers.get('ratelimit')).toMatch(/^"api-key";r=599;t=\d+$/);

    // The broker's own receiver, and an endpoint for its DIPs made with the key.
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    afterCleanup.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/crm/hooks`;
    const hook = await crm.post('/api/webhooks', { url: receiverUrl, events: ['dip.created'] });
    expect(hook.status).toBe(201);
    const { secret } = hook.json() as { secret: string };

    const saved = await crm.post('/api/search', {
      userId: owner.userId,
      loanType: 'development',
      searchData,
      apiResponse: run.json(),
    });
    expect(saved.status).toBe(201);
    const searchId = saved.json().search.id as string;

    const idempotencyKey = `dip-${searchId}`;
    const first = await crm.post(
      `/api/online-dip/create/${searchId}/0`,
      { validHours: 48 },
      {
        'idempotency-key': idempotencyKey,
      },
    );
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await crm.post(
      `/api/online-dip/create/${searchId}/0`,
      { validHours: 48 },
      {
        'idempotency-key': idempotencyKey,
      },
    );
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await crm.post(
      `/api/online-dip/create/${searchId}/0`,
      { validHours: 24 },
      {
        'idempotency-key': idempotencyKey,
      },
    );
    expect(other.status).toBe(422);
    expect(other.json()).toEqual({ success: false, error: IDEMPOTENCY_MESSAGES.otherRequest });
    const dips = await crm.get(`/api/online-dip/user/${owner.userId}`);
    expect(dips.status).toBe(200);
    expect(JSON.stringify(dips.json()).split(first.json().dipId).length - 1).toBeGreaterThan(0);
    expect(await dip.dipDb.collection('online_dips').countDocuments({ userId: owner.userId })).toBe(1);

    const { dipId, quoteCode } = first.json();
    // dip.created reaches the broker's receiver, signed per Standard Webhooks, checked here by hand.
    const delivery = await waitFor(
      () => received.find((r) => JSON.parse(r.body).data?.dipId === dipId),
      'the dip.created webhook',
    );
    const signed = `${delivery.headers['webhook-id']}.${delivery.headers['webhook-timestamp']}.${delivery.body}`;
    const mac = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(signed)
      .digest('base64');
    expect(delivery.headers['webhook-signature']).toBe(`v1,${mac}`);
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'dip.created', data: { dipId, quoteCode } });
    const pdf = await crm.get(`/api/online-dip/pdf/${quoteCode}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(pdf.text).toContain(quoteCode);

    const shared = await crm.post(`/api/online-dip/${dipId}/share`, {
      recipients: [`partner.${Date.now()}@example.co.uk`],
      message: 'For your review',
    });
    expect(shared.status).toBe(201);
    expect((await crm.get(`/api/online-dip/${dipId}/shares`)).status).toBe(200);

    // The owner's list shows when the key was last used.
    const listed = (await owner.browser.get('/api/api-keys')).json().apiKeys;
    expect(listed[0].lastUsedAt).toEqual(expect.any(String));

    // One DIP, one event: the replayed creation sent nothing more.
    expect(received.filter((r) => JSON.parse(r.body).type === 'dip.created')).toHaveLength(1);

    expect((await owner.browser.request('DELETE', `/api/api-keys/${id}`)).status).toBe(200);
    const refused = await crm.get(`/api/online-dip/user/${owner.userId}`);
    expect(refused.status).toBe(401);
    expect(refused.json()).toEqual({ success: false, error: API_KEY_MESSAGES.invalidKey });
  });

  it("another user's key reaches nothing of the owner's", async () => {
    const owner = await account('Olivia Owner');
    const ownerKey = keyClient(gateway.url, (await keyFor(owner.browser)).key);
    const stranger = await account('Sam Stranger');
    const strangerKey = keyClient(gateway.url, (await keyFor(stranger.browser)).key);
    const searchData = { ...DEVELOPMENT_PAYLOAD, propertyAddress: '3 Quay Street, Hull' };
    const run = await ownerKey.post('/api/development', { ...searchData, userId: owner.userId });
    const saved = await ownerKey.post('/api/search', {
      userId: owner.userId,
      loanType: 'development',
      searchData,
      apiResponse: run.json(),
    });
    const searchId = saved.json().search.id as string;
    const created = (await ownerKey.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 })).json();
    const { dipId, quoteCode } = created;
    const shared = await ownerKey.post(`/api/online-dip/${dipId}/share`, {
      recipients: [`friend.${Date.now()}@example.co.uk`],
    });
    expect(shared.status).toBe(201);
    const shares = (await ownerKey.get(`/api/online-dip/${dipId}/shares`)).json();
    const shareId = shares.recipients[0].shareId as string;

    const attempts = [
      strangerKey.post('/api/development', { ...searchData, userId: owner.userId }),
      strangerKey.post('/api/search', {
        userId: owner.userId,
        loanType: 'development',
        searchData,
        apiResponse: run.json(),
      }),
      strangerKey.get(`/api/user-searches/${owner.userId}`),
      strangerKey.get(`/api/search-result/${searchId}`),
      strangerKey.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 }),
      strangerKey.get(`/api/online-dip/user/${owner.userId}`),
      strangerKey.get(`/api/online-dip/${dipId}`),
      strangerKey.get(`/api/online-dip/pdf/${quoteCode}`),
      strangerKey.post(`/api/online-dip/${dipId}/regenerate-link`, {}),
      strangerKey.post(`/api/online-dip/${dipId}/expiry`, {}),
      strangerKey.post(`/api/online-dip/${dipId}/revoke`, {}),
      strangerKey.post(`/api/online-dip/${dipId}/share`, { recipients: ['x@example.co.uk'] }),
      strangerKey.get(`/api/online-dip/${dipId}/shares`),
      strangerKey.get(`/api/applications/${owner.userId}`),
      strangerKey.put('/api/search/project-name', {
        searchId,
        loanType: 'development',
        projectName: 'Mine now',
      }),
      strangerKey.post(`/api/online-dip/${dipId}/shares/${shareId}/revoke`, {}),
    ];
    for (const res of await Promise.all(attempts)) {
      expect([403, 404]).toContain(res.status);
      expect(res.json().success).toBe(false);
      expect(res.text).not.toContain(owner.email);
    }
    // Nothing was created for or changed of the owner.
    expect(await dip.dipDb.collection('online_dips').countDocuments({ userId: owner.userId })).toBe(1);
    expect(await dip.dipDb.collection('online_dips').countDocuments({ userId: stranger.userId })).toBe(0);
    expect((await ownerKey.get(`/api/online-dip/${dipId}`)).status).toBe(200);
    expect((await ownerKey.get(`/api/online-dip/${dipId}/shares`)).json().recipients).toEqual(
      shares.recipients,
    );
    const stillNamed = (await ownerKey.get(`/api/user-searches/${owner.userId}`)).json();
    expect(JSON.stringify(stillNamed)).not.toContain('Mine now');
  });

  it('refuses a bad, malformed, expired or out-of-scope key, and bad input changes nothing', async () => {
    const owner = await account('Kim Keys');
    const anonymous = new CookieClient(gateway.url);
    const malformed = await anonymous.get(`/api/online-dip/user/${owner.userId}`, {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(malformed.status).toBe(401);
    expect(malformed.json()).toEqual({ success: false, error: API_KEY_MESSAGES.missingKey });
    const unknown = keyClient(gateway.url, `lsp_${'0'.repeat(24)}_${'A'.repeat(43)}`);
    expect((await unknown.get(`/api/online-dip/user/${owner.userId}`)).json()).toEqual({
      success: false,
      error: API_KEY_MESSAGES.invalidKey,
    });
    const { key, id } = await keyFor(owner.browser);
    // The right id with another secret is refused.
    const forged = keyClient(gateway.url, `${key.slice(0, 29)}${'B'.repeat(43)}`);
    expect((await forged.get(`/api/online-dip/user/${owner.userId}`)).status).toBe(401);

    const readOnly = keyClient(
      gateway.url,
      (await keyFor(owner.browser, { name: 'Reports', scopes: ['dips:read'] })).key,
    );
    expect((await readOnly.get(`/api/online-dip/user/${owner.userId}`)).status).toBe(200);
    const outOfScope = await readOnly.post('/api/development', {
      ...DEVELOPMENT_PAYLOAD,
      userId: owner.userId,
    });
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.json()).toEqual({
      success: false,
      error: API_KEY_MESSAGES.outOfScope('searches:write'),
    });
    expect((await readOnly.get('/api/auth/me')).status).toBe(403);

    // Bad input with a key: a clear 400, and nothing is made.
    const crm = keyClient(gateway.url, key);
    const badDip = await crm.post(
      `/api/online-dip/create/not-a-search/0`,
      { validHours: 'soon' },
      {
        'idempotency-key': 'bad-input-1',
      },
    );
    expect(badDip.status).toBe(400);
    const badKey = await crm.post(
      `/api/online-dip/create/x/0`,
      { validHours: 48 },
      { 'idempotency-key': 'a b' },
    );
    expect(badKey.status).toBe(400);
    expect(badKey.json()).toEqual({ success: false, error: IDEMPOTENCY_MESSAGES.invalidKey });
    expect(await dip.dipDb.collection('online_dips').countDocuments({ userId: owner.userId })).toBe(0);

    // Expired: the record's end is past (as it will be once its days have gone).
    const lookup = apiKeyLookupKey(id);
    const record = JSON.parse((await gateway.redis.get(lookup)) as string) as ApiKeyRecord;
    await gateway.redis.set(
      lookup,
      JSON.stringify({ ...record, expiresAt: new Date(Date.now() - 1000).toISOString() }),
    );
    expect((await crm.get(`/api/online-dip/user/${owner.userId}`)).json()).toEqual({
      success: false,
      error: API_KEY_MESSAGES.invalidKey,
    });
  });

  it('answers 503 with Retry-After, not 401, while the key cannot be checked', async () => {
    const owner = await account('Rhea Redis');
    const { key } = await keyFor(owner.browser);
    const cutOff = await startTestGateway({ redisUrl: dip.redis.url, upstreams: {} });
    try {
      cutOff.redis.disconnect();
      const res = await keyClient(cutOff.url, key).get(`/api/online-dip/user/${owner.userId}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.json()).toEqual({
        success: false,
        error: API_KEY_UNAVAILABLE_MESSAGE,
        retryAfterSeconds: 5,
      });
    } finally {
      await cutOff.close();
    }
  });

  it('limits each key with 429, Retry-After and the RateLimit headers', async () => {
    const addressLimitedGateway = await startTestGateway({
      redisUrl: dip.redis.url,
      upstreams: {},
      env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '3600' },
    });
    afterCleanup.push(() => addressLimitedGateway.close());
    const owner = await account('Rita Rate');
    const crm = keyClient(limitedGateway.url, (await keyFor(owner.browser)).key);
    const path = `/api/online-dip/user/${owner.userId}`;
    const first = await crm.get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"api-key";q=2;w=3600');
    expect(first.headers.get('ratelimit')).toMatch(/^"api-key";r=1;t=\d+$/);
    expect((await crm.get(path)).status).toBe(200);
    const limited = await crm.get(path);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/^"api-key";r=0;t=\d+$/);
    expect(limited.json()).toMatchObject({ success: false, retryAfterSeconds: expect.any(Number) });
    // The header is no way around the per-address limit where no key is counted (an unknown path here).
    const stray = new CookieClient(addressLimitedGateway.url);
    const withHeader = { headers: { authorization: 'Bearer anything' } };
    expect((await stray.get('/api/no-such-route', withHeader)).status).toBe(404);
    expect((await stray.get('/api/no-such-route', withHeader)).status).toBe(404);
    expect((await stray.get('/api/no-such-route', withHeader)).status).toBe(429);
    // Another key of the same user has its own allowance.
    const second = keyClient(limitedGateway.url, (await keyFor(owner.browser, { name: 'Second' })).key);
    expect((await second.get(path)).status).toBe(200);
  });

  it('answers 409 to a second request with the key while the first runs, then the first answer', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived: () => void = () => undefined;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    let created = 0;
    // A dip upstream that holds its answer until told, and counts what it creates.
    const upstream = createServer((req, res) => {
      req.resume();
      // The gateway's health probe is answered at once and not counted.
      if (req.method !== 'POST') {
        res.end('ok');
        return;
      }
      req.on('end', async () => {
        created += 1;
        arrived();
        await held;
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, dipId: `dip-${created}` }));
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => upstream.listen(port, '127.0.0.1', resolve));
    const slowGateway = await startTestGateway({
      redisUrl: dip.redis.url,
      upstreams: { dip: `http://127.0.0.1:${port}` },
    });
    try {
      const { client } = await signedInClient(slowGateway, dip.redis, {
        email: 'slow@example.co.uk',
        name: 'Sol',
      });
      const headers = { 'idempotency-key': 'one-create' };
      const path = '/api/online-dip/create/search-1/0';
      const first = client.post(path, { validHours: 48 }, { headers });
      await firstArrived;
      const second = await client.post(path, { validHours: 48 }, { headers });
      expect(second.status).toBe(409);
      expect(second.json()).toEqual({ success: false, error: IDEMPOTENCY_MESSAGES.stillRunning });
      expect(second.headers.get('retry-after')).toBe('1');
      release();
      expect((await first).status).toBe(201);
      const later = await client.post(path, { validHours: 48 }, { headers });
      expect(later.status).toBe(201);
      expect(later.json()).toEqual({ ok: true, dipId: 'dip-1' });
      expect(created).toBe(1);
      // Keys are per user: another user's same key is a request of its own.
      const { client: otherUser } = await signedInClient(slowGateway, dip.redis, {
        email: 'o@example.co.uk',
        name: 'O',
      });
      expect((await otherUser.post(path, { validHours: 48 }, { headers })).json()).toEqual({
        ok: true,
        dipId: 'dip-2',
      });
    } finally {
      release();
      await slowGateway.close();
      upstream.close();
    }
  });
});
