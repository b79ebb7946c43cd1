// Webhooks end to end: endpoints made through the gateway (session or API key), events from the bus
// delivered to a loopback receiver, signatures checked here with node:crypto alone, BullMQ's retries
// driven by promoting the delayed job (never by waiting out a delay), and the refusals.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  API_KEY_MESSAGES,
  type ApiKeyRecord,
  type ApiKeyScope,
  EVENT_SCHEMAS,
  type EventEnvelope,
  type EventType,
  WEBHOOKS_PER_USER_MAX,
  WEBHOOK_MESSAGES,
  WEBHOOK_RETRY_DELAYS_MS,
  apiKeyLookupKey,
  createEnvelope,
} from '@lsp/contracts';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import { RedisStreamsEventBus, createQueue } from '@lsp/service-kit';
import {
  CookieClient,
  type TestRedis,
  type TestSmtp,
  listen,
  signedInClient,
  silentLogger,
  startHarness,
  useHarness,
  waitFor,
} from '@lsp/testing';
import { releasedExamplesConsumedBy } from '@lsp/testing/src/released-events';
import type { Job, Queue, Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Connection } from 'mongoose';
import { notificationsConfigSchema } from '../src/config';
import { AlertStore } from '../src/data/alerts';
import { EMAIL_QUEUE, type EmailJob } from '../src/email/jobs';
import { queueWebhookDeliveries, subscribeToWebhookEvents } from '../src/events/webhooks';
import {
  WEBHOOK_QUEUE,
  type WebhookJob,
  startWebhookWorker,
  tryWebhookJob,
  webhookJobId,
} from '../src/webhooks/delivery';
import { WebhookStore } from '../src/webhooks/store';
import { buildTestApp, mailBackends, startTestEmailWorker } from './test-app';

jest.setTimeout(90_000);

/** A loopback receiver: keeps every request and answers with the next status queued (200 when none). */
interface Receiver {
  url: string;
  received: Array<{ headers: http.IncomingHttpHeaders; body: string }>;
  answers: number[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const status = answers.shift() ?? 200;
      res.writeHead(status, status === 302 ? { location: 'http://127.0.0.1:9/' } : {}).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Standard Webhooks verification, written from the specification with node:crypto only. */
function verifySignature(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const expected = createHmac('sha256', key).update(signed).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((candidate) => {
      const [version, mac] = candidate.split(',');
      const given = Buffer.from(mac ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

interface Rig {
  db: Connection;
  redis: TestRedis;
  bus: RedisStreamsEventBus;
  queue: Queue<WebhookJob>;
  worker: Worker<WebhookJob>;
  store: WebhookStore;
  alerts: AlertStore;
  smtp: TestSmtp;
  app: FastifyInstance;
  gateway: TestGateway;
  receiver: Receiver;
  close(): Promise<void>;
}

function startRig(): Promise<Rig> {
  return startHarness(async (backends) => {
    const { redis, onClose } = backends;
    const { smtp, db, config } = await mailBackends(backends, { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' });
    const receiver = await startReceiver();
    onClose(() => receiver.close());
    const bus = new RedisStreamsEventBus({
      redisUrl: redis.url,
      prefix: `events-${randomBytes(4).toString('hex')}:`,
      blockMs: 100,
      claimIntervalMs: 500,
    });
    onClose(() => bus.close());
    const queue = createQueue<WebhookJob>(WEBHOOK_QUEUE, redis.url);
    onClose(() => queue.close());
    const emailQueue = createQueue<EmailJob>(EMAIL_QUEUE, redis.url);
    onClose(() => emailQueue.close());
    const store = new WebhookStore(db);
    await store.ensureIndexes();
    const alerts = new AlertStore(db);
    subscribeToWebhookEvents(bus, { store, queue });
    await bus.start();
    const worker = startWebhookWorker({
      store,
      alerts,
      emailQueue,
      logger: silentLogger(),
      redisUrl: redis.url,
      prefix: 'bull',
      concurrency: 2,
      allowPrivateTargets: true,
      publicUrl: 'http://localhost:8080',
    });
    onClose(() => worker.close());
    startTestEmailWorker(config, db, onClose);
    const app = buildTestApp(config, db, { webhookQueue: queue });
    const listening = await listen(app);
    onClose(() => listening.close());
    const gateway = await startTestGateway({
      redisUrl: redis.url,
      upstreams: { notifications: listening.url },
    });
    onClose(() => gateway.close());
    return { db, redis, bus, queue, worker, store, alerts, smtp, app, gateway, receiver };
  });
}

describe('webhooks', () => {
  const rig = useHarness(startRig);

  const person = async (name: string) => {
    const signedIn = await signedInClient(rig.gateway, rig.redis, {
      email: `${name.toLowerCase().replace(/\W+/g, '.')}.${randomBytes(3).toString('hex')}@example.com`,
      name,
    });
    await rig.alerts.saveRecipient(signedIn.user.userId, signedIn.user.email, name);
    return signedIn;
  };

  /** An API key of the user, written where identity writes it, as the gateway reads it. */
  const keyFor = async (user: { userId: string; email: string; name: string }, scopes: ApiKeyScope[]) => {
    const id = randomBytes(12).toString('hex');
    const key = `lsp_${id}_${randomBytes(32).toString('base64url')}`;
    const record: ApiKeyRecord = {
      id,
      digest: createHash('sha256').update(key).digest('hex'),
      userId: user.userId,
      email: user.email,
      name: 'CRM',
      verified: true,
      scopes,
      prefix: key.slice(0, 16),
      createdAt: new Date().toISOString(),
      expiresAt: null,
    };
    await rig.gateway.redis.set(apiKeyLookupKey(id), JSON.stringify(record));
    const client = new CookieClient(rig.gateway.url);
    const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
    return {
      id,
      get: (path: string) => client.get(path, { headers: headers() }),
      post: (path: string, body?: unknown, extra?: Record<string, string>) =>
        client.post(path, body, { headers: headers(extra) }),
      delete: (path: string) => client.request('DELETE', path, { headers: headers() }),
    };
  };

  const releasedExample = async (type: string) => {
    const example = (await releasedExamplesConsumedBy('notifications')).find(
      (e) => e.type === type && e.shape === 'full',
    )!;
    return EVENT_SCHEMAS[type as EventType]![example.version]!.parse(example.payload) as Record<
      string,
      unknown
    >;
  };

  const dipCreatedFor = async (ownerUserId: string): Promise<EventEnvelope> =>
    createEnvelope('dip', {
      type: 'dip.created',
      subject: 'dip',
      data: {
        ...(await releasedExample('dip.created')),
        ownerUserId,
        ownerEmail: 'owner.private@example.com',
      },
    });

  const triesOf = (endpointId: string) => rig.store.tries(endpointId);

  /** Waits until the job has failed `n` tries and sits delayed for its retry, then runs the retry now. */
  async function retryNow(jobId: string, failedTries: number) {
    const job = await waitFor(async () => {
      const found = await rig.queue.getJob(jobId);
      return found && found.attemptsMade === failedTries && (await found.isDelayed()) ? found : null;
    }, `try ${failedTries} of ${jobId} to fail and wait`);
    await (job as Job<WebhookJob>).promote();
  }

  it('delivers dip.created to a key-made endpoint, signed per Standard Webhooks, once per event', async () => {
    const { user } = await person('Ana Broker');
    const crm = await keyFor(user, ['webhooks:read', 'webhooks:write']);
    const body = { url: rig.receiver.url, events: ['dip.created', 'share.viewed'] };
    const made = await crm.post('/api/webhooks', body, { 'idempotency-key': 'hook-1' });
    expect(made.status).toBe(201);
    const endpoint = made.json();
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^wh_[a-f0-9]{24}$/),
      url: rig.receiver.url,
      events: ['dip.created', 'share.viewed'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdAt: expect.any(String),
    });
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(24);
    // The same Idempotency-Key answers the first answer again: one endpoint.
    const again = await crm.post('/api/webhooks', body, { 'idempotency-key': 'hook-1' });
    expect([again.status, again.json().id, again.headers.get('idempotent-replayed')]).toEqual([
      201,
      endpoint.id,
      'true',
    ]);
    const listed = await crm.get('/api/webhooks');
    expect(listed.json()).toEqual({
      webhooks: [
        {
          id: endpoint.id,
          url: rig.receiver.url,
          events: ['dip.created', 'share.viewed'],
          status: 'enabled',
          createdAt: endpoint.createdAt,
          disabledAt: null,
        },
      ],
    });

    const event = await dipCreatedFor(user.userId);
    const before = rig.receiver.received.length;
    await rig.bus.publish(event);
    const delivery = await waitFor(
      () => rig.receiver.received.find((r) => r.headers['webhook-id'] === event.id),
      'the dip.created delivery',
    );
    expect(verifySignature(endpoint.secret, delivery.headers, delivery.body)).toBe(true);
    expect(verifySignature(endpoint.secret, delivery.headers, delivery.body.replace('}', ' }'))).toBe(false);
    expect(Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(delivery.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({
      type: 'dip.created',
      timestamp: event.time,
      data: { dipId: (event.data as { dipId: string }).dipId, quoteCode: expect.any(String) },
    });
    expect(delivery.body).not.toContain('owner.private@example.com');

    const tries = await waitFor(async () => {
      const found = await crm.get(`/api/webhooks/${endpoint.id}/deliveries`);
      return found.json().deliveries.length > 0 ? found.json().deliveries : null;
    }, 'the try to be recorded');
    expect(tries).toEqual([
      {
        eventId: event.id,
        type: 'dip.created',
        attempt: 1,
        statusCode: 200,
        error: null,
        delivered: true,
        at: expect.any(String),
        durationMs: expect.any(Number),
      },
    ]);
    // Redelivered by the bus: the job id is the endpoint's and the event's, so nothing is sent again.
    await rig.bus.publish(event);
    const other = await dipCreatedFor(user.userId);
    await rig.bus.publish(other);
    await waitFor(
      () => rig.receiver.received.find((r) => r.headers['webhook-id'] === other.id),
      'the next event',
    );
    expect(
      rig.receiver.received.slice(before).filter((r) => r.headers['webhook-id'] === event.id),
    ).toHaveLength(1);
  });

  it('retries after a 500 and a redirect, with the same webhook-id, until a 2xx', async () => {
    const { user, client } = await person('Ben Retry');
    const made = await client.post('/api/webhooks', { url: rig.receiver.url, events: ['search.repriced'] });
    expect(made.status).toBe(201);
    const { id, secret } = made.json();
    const data = await releasedExample('search.repriced');
    const event = createEnvelope('search', {
      type: 'search.repriced',
      subject: 's',
      data: { ...data, userId: user.userId },
    });
    rig.receiver.answers.push(500, 302);
    await rig.bus.publish(event);
    const jobId = webhookJobId(id, event.id);
    await retryNow(jobId, 1);
    await retryNow(jobId, 2);
    await waitFor(
      async () => (await triesOf(id)).some((t) => t.delivered) || null,
      'the third try to succeed',
    );
    const tries = await triesOf(id);
    expect(tries.map((t) => [t.attempt, t.statusCode, t.delivered])).toEqual([
      [3, 200, true],
      [2, 302, false],
      [1, 500, false],
    ]);
    const sent = rig.receiver.received.filter((r) => r.headers['webhook-id'] === event.id);
    expect(sent).toHaveLength(3);
    // One body on every try; each try signed for its own timestamp.
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    for (const r of sent) expect(verifySignature(secret, r.headers, r.body)).toBe(true);
    const job = (await rig.queue.getJob(jobId))!;
    expect(await job.getState()).toBe('completed');
    expect(job.opts.attempts).toBe(WEBHOOK_RETRY_DELAYS_MS.length + 1);
  });

  it('disables the endpoint after the last failed try and emails its owner once', async () => {
    const { user, client } = await person('Cy Failing');
    const made = await client.post('/api/webhooks', {
      url: 'http://127.0.0.1:9/down',
      events: ['dip.created'],
    });
    const { id } = made.json();
    const test = await client.post(`/api/webhooks/${id}/test`);
    expect(test.status).toBe(202);
    const { eventId } = test.json();
    expect(test.json()).toEqual({ eventId, type: 'webhook.test' });
    const jobId = webhookJobId(id, eventId);
    for (let failed = 1; failed <= WEBHOOK_RETRY_DELAYS_MS.length; failed++) await retryNow(jobId, failed);
    const mail = await rig.smtp.waitForMessage((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Your webhook endpoint has been disabled');
    expect(mail.text).toContain('http://127.0.0.1:9/down');
    expect(mail.text).toContain('The last try got: ECONNREFUSED');
    const [listed] = (await client.get('/api/webhooks')).json().webhooks;
    expect([listed.status, typeof listed.disabledAt]).toEqual(['disabled', 'string']);
    const tries = await triesOf(id);
    expect(tries).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
    expect(tries.every((t) => t.statusCode === null && /ECONNREFUSED/.test(t.error ?? ''))).toBe(true);
    expect(await (await rig.queue.getJob(jobId))!.getState()).toBe('failed');
    // Disabled: a test is refused, and new events queue nothing for it.
    expect((await client.post(`/api/webhooks/${id}/test`)).json()).toEqual({
      success: false,
      error: WEBHOOK_MESSAGES.disabled,
    });
    const later = await dipCreatedFor(user.userId);
    expect(await queueWebhookDeliveries(later, { store: rig.store, queue: rig.queue })).toBe(0);
    expect(await rig.queue.getJob(webhookJobId(id, later.id))).toBeUndefined();
    expect(rig.smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });

  it('refuses loopback, private and non-https targets without the development switch, also at delivery', async () => {
    const strict = buildTestApp(
      notificationsConfigSchema.parse({
        INTERNAL_SECRET: 'a-test-secret-of-enough-length',
        MONGO_URL: 'mongodb://127.0.0.1:1',
        REDIS_URL: rig.redis.url,
      }),
      rig.db,
      { webhookQueue: rig.queue },
    );
    await strict.ready();
    const { identityHeaders } = await import('@lsp/service-kit');
    const userId = `user-${randomBytes(4).toString('hex')}`;
    const headers = identityHeaders(
      { userId, email: 'dee@example.com', name: 'Dee', verified: true, roles: [] },
      'a-test-secret-of-enough-length',
    );
    try {
      for (const [url, error] of [
        ['https://127.0.0.1/hooks', WEBHOOK_MESSAGES.privateTarget],
        ['https://localhost/hooks', WEBHOOK_MESSAGES.privateTarget],
        ['https://10.0.0.8/hooks', WEBHOOK_MESSAGES.privateTarget],
        ['https://169.254.169.254/latest/meta-data', WEBHOOK_MESSAGES.privateTarget],
        ['https://[::1]/hooks', WEBHOOK_MESSAGES.privateTarget],
        ['https://[::ffff:7f00:1]/hooks', WEBHOOK_MESSAGES.privateTarget],
        ['https://[fd00::1]/hooks', WEBHOOK_MESSAGES.privateTarget],
        ['http://93.184.216.34/hooks', WEBHOOK_MESSAGES.notHttps],
      ]) {
        const res = await strict.inject({
          method: 'POST',
          url: '/api/webhooks',
          headers,
          payload: { url, events: ['dip.created'] },
        });
        expect([url, res.statusCode, res.json().error]).toEqual([url, 400, error]);
      }
      expect(await rig.store.count(userId)).toBe(0);
    } finally {
      await strict.close();
    }

    // A name that was public when added and resolves to loopback at delivery (DNS rebinding) gets nothing.
    await rig.store.create({
      _id: 'wh_rebinding',
      userId,
      url: 'https://hooks.example.com/in',
      events: ['dip.created'],
      secret: 'whsec_AAAA',
      status: 'enabled',
      createdAt: new Date(),
      disabledAt: null,
    });
    const before = rig.receiver.received.length;
    const job = {
      data: { endpointId: 'wh_rebinding', eventId: 'e-1', type: 'dip.created', body: '{}' },
      attemptsMade: 0,
      opts: { attempts: 8 },
    } as unknown as Job<WebhookJob>;
    await expect(
      tryWebhookJob(job, {
        store: rig.store,
        alerts: rig.alerts,
        emailQueue: null as never,
        logger: silentLogger(),
        redisUrl: rig.redis.url,
        prefix: 'bull',
        concurrency: 1,
        allowPrivateTargets: false,
        publicUrl: 'http://localhost:8080',
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    ).rejects.toThrow(/failed/);
    expect(await rig.store.tries('wh_rebinding')).toMatchObject([
      { attempt: 1, statusCode: null, error: WEBHOOK_MESSAGES.privateTarget, delivered: false },
    ]);
    expect(rig.receiver.received.length).toBe(before);
  });

  it("keeps each user's endpoints their own: another user's list, delete, test and deliveries find nothing", async () => {
    const owner = await person('Eve Owner');
    const { id } = (
      await owner.client.post('/api/webhooks', { url: rig.receiver.url, events: ['dip.created'] })
    ).json();
    const intruder = await person('Mal Intruder');
    const intruderKey = await keyFor(intruder.user, ['webhooks:read', 'webhooks:write']);
    const bySession = {
      get: (path: string) => intruder.client.get(path),
      post: (path: string) => intruder.client.post(path),
      delete: (path: string) => intruder.client.request('DELETE', path),
    };
    for (const caller of [bySession, intruderKey]) {
      expect((await caller.get('/api/webhooks')).json()).toEqual({ webhooks: [] });
      for (const res of [
        await caller.delete(`/api/webhooks/${id}`),
        await caller.post(`/api/webhooks/${id}/test`),
        await caller.get(`/api/webhooks/${id}/deliveries`),
      ]) {
        expect([res.status, res.json()]).toEqual([404, { success: false, error: WEBHOOK_MESSAGES.notFound }]);
      }
    }
    // Another user's event reaches none of the owner's endpoints.
    const theirs = await dipCreatedFor(intruder.user.userId);
    await rig.bus.publish(theirs);
    const mine = await dipCreatedFor(owner.user.userId);
    await rig.bus.publish(mine);
    await waitFor(
      () => rig.receiver.received.find((r) => r.headers['webhook-id'] === mine.id),
      'the owner’s event',
    );
    expect(await rig.queue.getJob(webhookJobId(id, theirs.id))).toBeUndefined();
    expect(
      (await owner.client.get('/api/webhooks')).json().webhooks.map((w: { id: string }) => w.id),
    ).toEqual([id]);
    const deleted = await owner.client.request('DELETE', `/api/webhooks/${id}`);
    expect(deleted.status).toBe(204);
    expect((await owner.client.get('/api/webhooks')).json()).toEqual({ webhooks: [] });
  });

  it('answers bad input with a clear 400 and stores nothing', async () => {
    const { user, client } = await person('Fay Fields');
    const cases: Array<[unknown, string]> = [
      [{ url: rig.receiver.url, events: ['dip.deleted'] }, WEBHOOK_MESSAGES.unknownEvent],
      [{ url: rig.receiver.url, events: [] }, WEBHOOK_MESSAGES.eventsRequired],
      [{ url: rig.receiver.url }, WEBHOOK_MESSAGES.eventsRequired],
      [{ url: 'not a url', events: ['dip.created'] }, WEBHOOK_MESSAGES.urlInvalid],
      [{ url: 'ftp://example.com/x', events: ['dip.created'] }, WEBHOOK_MESSAGES.urlInvalid],
      [{ events: ['dip.created'] }, WEBHOOK_MESSAGES.urlRequired],
      [{ url: 'https://u:p@example.com/x', events: ['dip.created'] }, WEBHOOK_MESSAGES.urlCredentials],
    ];
    for (const [body, error] of cases) {
      const res = await client.post('/api/webhooks', body);
      expect([JSON.stringify(body), res.status, res.json().error]).toEqual([
        JSON.stringify(body),
        400,
        error,
      ]);
    }
    expect(await rig.store.count(user.userId)).toBe(0);
    for (let i = 0; i < WEBHOOKS_PER_USER_MAX; i++) {
      expect(
        (await client.post('/api/webhooks', { url: rig.receiver.url, events: ['dip.created'] })).status,
      ).toBe(201);
    }
    const tooMany = await client.post('/api/webhooks', { url: rig.receiver.url, events: ['dip.created'] });
    expect([tooMany.status, tooMany.json().error]).toEqual([400, WEBHOOK_MESSAGES.tooMany]);
    expect(await rig.store.count(user.userId)).toBe(WEBHOOKS_PER_USER_MAX);
    const longId = await client.get(`/api/webhooks/${'x'.repeat(65)}/deliveries`);
    expect(longId.status).toBe(400);
  });

  it('refuses a key without the webhooks scope (403) and a revoked key (401)', async () => {
    const { user } = await person('Gus Keys');
    const searchesOnly = await keyFor(user, ['searches:read']);
    const refused = await searchesOnly.post('/api/webhooks', {
      url: rig.receiver.url,
      events: ['dip.created'],
    });
    expect([refused.status, refused.json().error]).toEqual([
      403,
      API_KEY_MESSAGES.outOfScope('webhooks:write'),
    ]);
    const readOnly = await keyFor(user, ['webhooks:read']);
    expect((await readOnly.get('/api/webhooks')).status).toBe(200);
    expect(
      (await readOnly.post('/api/webhooks', { url: rig.receiver.url, events: ['dip.created'] })).status,
    ).toBe(403);
    const full = await keyFor(user, ['webhooks:read', 'webhooks:write']);
    expect((await full.get('/api/webhooks')).status).toBe(200);
    await rig.gateway.redis.del(apiKeyLookupKey(full.id));
    const revoked = await full.get('/api/webhooks');
    expect([revoked.status, revoked.json().error]).toEqual([401, API_KEY_MESSAGES.invalidKey]);
    expect(await rig.store.count(user.userId)).toBe(0);
  });
});
