// The operations console's server side on Redis Streams: the live feed over SSE (filters,
// replay, Last-Event-ID resume, bounded buffers), the correlation chain, dead letters (replay exactly
// once, discard with a reason), the BullMQ queues and the health grid, each behind the `ops` role.
import {
  type EventEnvelope,
  IDENTITY_EVENT_TYPES,
  SESSION_COOKIE,
  createEnvelope,
  sessionKey,
  OPS_FEED_REPLAY,
  OPS_MESSAGES,
  type OpsChainResponse,
  type OpsDeadLettersResponse,
  type OpsFeedStats,
  type OpsHealthResponse,
  type OpsQueuesResponse,
  opsChainResponseSchema,
  opsDeadLettersResponseSchema,
  opsFeedStatsSchema,
  opsHealthResponseSchema,
  opsQueuesResponseSchema,
} from '@lsp/contracts';
import {
  PLATFORM_VERSION,
  ProcessedEvents,
  RedisStreamsEventBus,
  ServiceMetrics,
  createQueue,
  createServiceApp,
} from '@lsp/service-kit';
import {
  DOWN_URL,
  type Listening,
  TEST_SECRETS,
  type TestMongo,
  type TestRedis,
  leaseRedisDb,
  listen,
  silentLogger,
  sleep,
  startTestMongo,
  waitFor,
} from '@lsp/testing';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import { type Queue, Worker } from 'bullmq';
import type { Connection } from 'mongoose';
import { EMAIL_QUEUE, type EmailJob } from '../src/email/jobs';
import { subscribeToIdentityEvents } from '../src/events/consumed';
import type { OpsConsole } from '../src/ops';
import {
  BORROWER,
  OPS_USER,
  asOps,
  asUser,
  buildAppWithOpsConsole,
  openStream,
  testEvent,
} from './ops-helpers';

jest.setTimeout(120_000);

const CLIENT_BUFFER = 50;

describe('the operations console (Redis Streams)', () => {
  let mongo: TestMongo;
  let redis: TestRedis;
  let db: Connection;
  /** The notifications process's bus: the dead-letter collector consumes on it, replays publish on it. */
  let bus: RedisStreamsEventBus;
  /** Other services: publishers and consumers (test doubles). */
  let publisher: RedisStreamsEventBus;
  let consumers: RedisStreamsEventBus;
  let ops: OpsConsole;
  let service: Listening;
  let target: Listening;
  let targetMetrics: ServiceMetrics;
  let emailQueue: Queue<EmailJob>;
  let pdfQueue: Queue;
  let pdfWorker: Worker | undefined;

  // Test doubles: one consumer that fails on poisoned events until fixed, one that always works.
  const poisoned = new Set<string>();
  let poisonFixed = false;
  const effects = { poison: new Map<string, number>(), healthy: new Map<string, number>() };
  let processed: ProcessedEvents;

  const get = async (path: string, headers: Record<string, string> = asOps()) => {
    const res = await fetch(`${service.url}${path}`, { headers });
    return { status: res.status, body: (await res.json()) as any };
  };
  const post = async (path: string, body?: unknown, headers: Record<string, string> = asOps()) => {
    const res = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const stream = (query = '', headers: Record<string, string> = {}) =>
    openStream(service.url, `/api/ops/events/stream${query}`, { ...asOps(), ...headers });

  beforeAll(async () => {
    mongo = await startTestMongo();
    redis = await leaseRedisDb();
    db = await mongo.database('notifications');

    // A process of the health grid: a real service app, whose request figures a test records.
    targetMetrics = new ServiceMetrics('search');
    const targetApp = createServiceApp({
      name: 'search',
      logger: silentLogger(),
      metrics: targetMetrics,
      healthChecks: [{ name: 'mongodb', check: async () => undefined }],
      // The console scrapes it with the metrics token the notifications config holds.
      metricsToken: TEST_SECRETS.METRICS_TOKEN,
    });
    target = await listen(targetApp);

    const fast = { blockMs: 200, claimIntervalMs: 200 };
    const retry = { maxAttempts: 2, initialDelayMs: 100, maxDelayMs: 200 };
    bus = new RedisStreamsEventBus({ redisUrl: redis.url, ...fast, retry });
    publisher = new RedisStreamsEventBus({ redisUrl: redis.url });
    consumers = new RedisStreamsEventBus({ redisUrl: redis.url, ...fast, retry });

    processed = await ProcessedEvents.open(db);
    const counting = (consumer: 'poison' | 'healthy') => async (envelope: EventEnvelope) => {
      if (consumer === 'poison' && poisoned.has(envelope.id) && !poisonFixed)
        throw new Error(`cannot handle ${envelope.id}: the lender is unknown`);
      await processed.handleOnce(`test-${consumer}`, envelope, async () => {
        effects[consumer].set(envelope.id, (effects[consumer].get(envelope.id) ?? 0) + 1);
      });
    };
    consumers.subscribe({
      consumerGroup: 'test-poison',
      // The password events too: their dead letters must reach the console.
      types: [
        'dip.created',
        IDENTITY_EVENT_TYPES.passwordResetRequested,
        IDENTITY_EVENT_TYPES.passwordChanged,
      ],
      handler: counting('poison'),
    });
    consumers.subscribe({
      consumerGroup: 'test-healthy',
      types: ['dip.created'],
      handler: counting('healthy'),
    });
    emailQueue = createQueue<EmailJob>(EMAIL_QUEUE, redis.url);
    pdfQueue = createQueue('pdf', redis.url);
    // The real notifications consumer: identity.verification.requested → an email job (id = event id).
    subscribeToIdentityEvents(consumers, processed, emailQueue);

    const built = await buildAppWithOpsConsole({
      mongoUrl: mongo.url,
      db,
      redisUrl: redis.url,
      bus,
      env: {
        OPS_FEED_CLIENT_BUFFER: String(CLIENT_BUFFER),
        OPS_TARGETS: `search=${target.url},email-worker=${DOWN_URL}`,
      },
      console: { queues: { email: emailQueue }, instance: 'test' },
    });
    ops = built.ops;
    await bus.start();
    await consumers.start();
    await ops.start();
    service = await listen(built.app);
  });

  afterAll(async () => {
    await service?.close();
    await ops?.close();
    await pdfWorker?.close();
    // A queue from createQueue ends its own connection on close().
    for (const queue of [emailQueue, pdfQueue]) await queue?.close();
    await consumers?.close();
    await publisher?.close();
    await bus?.close();
    await target?.close();
    await redis?.release();
    await mongo?.stop();
  });

  describe('who may see it', () => {
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', '/api/ops/events/stream'],
      ['GET', '/api/ops/events?correlationId=x'],
      ['GET', '/api/ops/feed/stats'],
      ['GET', '/api/ops/dead-letters'],
      ['POST', '/api/ops/dead-letters/replay'],
      ['POST', '/api/ops/dead-letters/abc/replay'],
      ['POST', '/api/ops/dead-letters/abc/discard'],
      ['GET', '/api/ops/queues'],
      ['POST', '/api/ops/queues/email/jobs/1/retry'],
      ['GET', '/api/ops/health'],
    ];

    it.each(routes)('%s %s: 401 without a session, 403 without the ops role', async (method, path) => {
      const call = (headers: Record<string, string>) =>
        fetch(`${service.url}${path}`, {
          method,
          headers: method === 'POST' ? { ...headers, 'content-type': 'application/json' } : headers,
          body: method === 'POST' ? JSON.stringify({ reason: 'x' }) : undefined,
        });
      const anonymous = await call(asUser(null));
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()).error).toBe(OPS_MESSAGES.authRequired);
      // Identity headers without the gateway's secret are not believed.
      const forged = await call({ 'x-user-id': OPS_USER.userId, 'x-user-roles': 'ops' });
      expect(forged.status).toBe(401);
      const borrower = await call(asUser(BORROWER));
      expect(borrower.status).toBe(403);
      expect((await borrower.json()).error).toBe(OPS_MESSAGES.forbidden);
    });
  });

  describe('the live feed', () => {
    it('sends a published event as one SSE message: id its stream position, data the envelope', async () => {
      const subject = `feed-${Date.now()}`;
      const feed = await stream(`?subject=${subject}`);
      try {
        expect(feed.status).toBe(200);
        expect(feed.headers['content-type']).toMatch(/^text\/event-stream/);
        const event = testEvent('search.completed', { subject, correlationId: 'corr-feed' });
        await publisher.publish(event);
        await feed.waitFor((m) => m.some((x) => x.event === 'message'), 'the event on the feed');
        const [received] = feed.envelopes();
        expect(received.envelope).toEqual(event);
        expect(received.id).toMatch(/^\d+-\d+@search\.completed$/);
        // The position is the Redis stream entry id.
        const entries = await redis.redis.xrange('events:search.completed', '-', '+');
        expect(entries.map(([id]) => `${id}@search.completed`)).toContain(received.id);
      } finally {
        feed.close();
      }
    });

    it('never shows a link’s token, a deal token or a secret-named field to a viewer', async () => {
      const subject = `secret-${Date.now()}`;
      const feed = await stream(`?subject=${subject}`);
      try {
        const event = testEvent('identity.password-reset.requested', {
          subject,
          data: {
            resetUrl: 'http://localhost:8080/reset-password?token=feed-secret-token',
            dealUrl: 'http://localhost:8080/shared-deal/deal-capability-token',
            nested: { links: ['https://x.example/shared/s1?e=a%40b.c&sig=feed-signature'] },
            token: 'raw-token-value',
          },
        });
        await publisher.publish(event);
        await feed.waitFor((m) => m.some((x) => x.event === 'message'), 'the event on the feed');
        const [received] = feed.envelopes();
        expect(received.envelope.data).toEqual({
          resetUrl: 'http://localhost:8080/reset-password?…',
          dealUrl: 'http://localhost:8080/shared-deal/[redacted]',
          nested: { links: ['https://x.example/shared/s1?…'] },
          token: '[redacted]',
        });
        const raw = JSON.stringify(feed.envelopes());
        for (const secret of [
          'feed-secret-token',
          'deal-capability-token',
          'feed-signature',
          'raw-token-value',
        ])
          expect(raw).not.toContain(secret);
        // On the bus itself the event is as published.
        const entries = await redis.redis.xrange('events:identity.password-reset.requested', '-', '+');
        expect(entries.some(([, fields]) => fields.join(' ').includes('feed-secret-token'))).toBe(true);
      } finally {
        feed.close();
      }
    });

    it('filters by type prefix (repeatable), subject and correlation id', async () => {
      const subject = `filter-${Date.now()}`;
      const dips = await stream(`?type=dip.&subject=${subject}`);
      const twoTypes = await stream(`?type=dip.revoked&type=search.&subject=${subject}`);
      const byCorrelation = await stream(`?correlationId=corr-filter-${subject}`);
      try {
        const events = [
          testEvent('search.completed', { subject }),
          testEvent('dip.created', { subject, correlationId: `corr-filter-${subject}` }),
          testEvent('lead.captured', { subject }),
          testEvent('dip.revoked', { subject }),
        ];
        for (const event of events) await publisher.publish(event);
        await dips.waitFor((m) => m.filter((x) => x.event === 'message').length >= 2, 'two dip events');
        await twoTypes.waitFor((m) => m.filter((x) => x.event === 'message').length >= 2, 'two events');
        await byCorrelation.waitFor((m) => m.some((x) => x.event === 'message'), 'the correlated event');
        // A later event proves nothing else was on its way.
        await publisher.publish(testEvent('dip.expiry.changed', { subject }));
        await dips.waitFor((m) => m.filter((x) => x.event === 'message').length >= 3, 'the third dip event');
        expect(dips.envelopes().map((e) => e.envelope.type)).toEqual([
          'dip.created',
          'dip.revoked',
          'dip.expiry.changed',
        ]);
        expect(twoTypes.envelopes().map((e) => e.envelope.type)).toEqual(['search.completed', 'dip.revoked']);
        expect(byCorrelation.envelopes().map((e) => e.envelope.id)).toEqual([events[1].id]);
      } finally {
        dips.close();
        twoTypes.close();
        byCorrelation.close();
      }
    });

    it(`replays the last ${OPS_FEED_REPLAY} matching events on connect`, async () => {
      const subject = `replay-${Date.now()}`;
      const events = Array.from({ length: OPS_FEED_REPLAY + 30 }, () =>
        testEvent('share.viewed', { subject }),
      );
      for (const event of events) await publisher.publish(event);
      // Let the tap take them in.
      await waitFor(
        () => ops.tap.ring.last(1, { type: [], subject })[0]?.envelope.id === events.at(-1)!.id,
        'the tap',
      );
      const feed = await stream(`?subject=${subject}`);
      try {
        await feed.waitFor(
          (m) => m.filter((x) => x.event === 'message').length >= OPS_FEED_REPLAY,
          'the replay',
        );
        await sleep(300);
        expect(feed.envelopes().map((e) => e.envelope.id)).toEqual(
          events.slice(-OPS_FEED_REPLAY).map((e) => e.id),
        );
      } finally {
        feed.close();
      }
    });

    it('resumes after Last-Event-ID without a gap or a repeat', async () => {
      const subject = `resume-${Date.now()}`;
      const first = await stream(`?subject=${subject}`);
      const before = Array.from({ length: 5 }, () => testEvent('dip.created', { subject }));
      for (const event of before) await publisher.publish(event);
      await first.waitFor((m) => m.filter((x) => x.event === 'message').length >= 5, 'five events');
      const lastId = first.envelopes().at(-1)!.id;
      first.close();

      // While nobody is connected, events keep coming: interleaved with other subjects and types.
      const missed: EventEnvelope[] = [];
      for (let i = 0; i < 12; i++) {
        const event = testEvent(i % 2 ? 'dip.created' : 'search.completed', { subject });
        missed.push(event);
        await publisher.publish(event);
        await publisher.publish(testEvent('search.completed'));
      }
      await waitFor(
        () => ops.tap.ring.last(1, { type: [], subject })[0]?.envelope.id === missed.at(-1)!.id,
        'the tap',
      );

      const resumed = await stream(`?subject=${subject}`, { 'Last-Event-ID': lastId });
      // The dashboard's own reconnect (after the browser gave up) passes it as ?lastEventId=.
      const byQuery = await openStream(
        service.url,
        `/api/ops/events/stream?subject=${subject}&lastEventId=${encodeURIComponent(lastId)}`,
        asOps(),
      );
      try {
        await resumed.waitFor(
          (m) => m.filter((x) => x.event === 'message').length >= missed.length,
          'the missed events',
        );
        await byQuery.waitFor(
          (m) => m.filter((x) => x.event === 'message').length >= missed.length,
          'the missed events',
        );
        const live = testEvent('dip.created', { subject });
        await publisher.publish(live);
        await resumed.waitFor(
          (m) => m.filter((x) => x.event === 'message').length >= missed.length + 1,
          'the live event',
        );
        expect(resumed.envelopes().map((e) => e.envelope.id)).toEqual([...missed, live].map((e) => e.id));
        await byQuery.waitFor(
          (m) => m.filter((x) => x.event === 'message').length >= missed.length + 1,
          'the live event',
        );
        expect(byQuery.envelopes().map((e) => e.envelope.id)).toEqual([...missed, live].map((e) => e.id));
      } finally {
        resumed.close();
        byQuery.close();
      }
    });

    it('resumes from a position this process never held (another instance, or older than its ring) from Redis history', async () => {
      const subject = `history-${Date.now()}`;
      const events = Array.from({ length: 6 }, () => testEvent('lead.captured', { subject }));
      for (const event of events) await publisher.publish(event);
      const entries = (await redis.redis.xrange('events:lead.captured', '-', '+')) as Array<
        [string, string[]]
      >;
      const ids = new Map(
        entries.map(([id, fields]) => [JSON.parse(fields[fields.indexOf('envelope') + 1]).id, id]),
      );
      // A position one millisecond before the third event, on a stream position nobody has seen.
      const third = ids.get(events[2].id)!;
      const foreign = `${Number(third.split('-')[0]) - 1}-999@lead.captured`;
      const feed = await stream(`?subject=${subject}`, { 'Last-Event-ID': foreign });
      try {
        await feed.waitFor((m) => m.filter((x) => x.event === 'message').length >= 4, 'events after it');
        await sleep(300);
        const got = feed.envelopes().map((e) => e.envelope.id);
        // Nothing from the third on is missing; a repeat of an earlier one is allowed (the viewer drops repeats).
        for (const event of events.slice(2)) expect(got).toContain(event.id);
        expect(new Set(got).size).toBe(got.length);
      } finally {
        feed.close();
      }
    });

    it('keeps a bounded buffer per viewer: a slow viewer loses its oldest events, counted and reported; others get everything', async () => {
      const subject = `slow-${Date.now()}`;
      const slow = await stream(`?subject=${subject}`);
      const fast = await stream(`?subject=${subject}`);
      slow.pause(); // a viewer that stops reading: its socket fills, then its queue
      const padding = 'x'.repeat(32 * 1024);
      const events = Array.from({ length: 400 }, (_, i) =>
        testEvent('share.viewed', { subject, data: { i, padding } }),
      );
      try {
        const started = Date.now();
        for (const event of events) await publisher.publish(event);
        await fast.waitFor(
          (m) => m.filter((x) => x.event === 'message').length >= events.length,
          'every event on the fast viewer',
          60_000,
        );
        const fastTook = Date.now() - started;
        expect(fast.envelopes().map((e) => e.envelope.id)).toEqual(events.map((e) => e.id));

        const { body: stats } = await get('/api/ops/feed/stats');
        expect(opsFeedStatsSchema.parse(stats)).toBeTruthy();
        const slowStats = (stats as OpsFeedStats).viewers.find(
          (v) => v.filters.subject === subject && v.dropped > 0,
        );
        expect(slowStats).toBeDefined();
        expect(slowStats!.buffered).toBeLessThanOrEqual(CLIENT_BUFFER);
        expect(stats.totalDropped).toBeGreaterThanOrEqual(slowStats!.dropped);

        slow.resume();
        await slow.waitFor((m) => m.some((x) => x.event === 'dropped'), 'the dropped notice', 30_000);
        await slow.waitFor(
          (m) => {
            const delivered = m.filter((x) => x.event === 'message').length;
            const notices = m.filter((x) => x.event === 'dropped');
            const total = notices.length ? JSON.parse(notices.at(-1)!.data).totalDropped : 0;
            return delivered + total === events.length;
          },
          'delivered + dropped = published',
          30_000,
        );
        const notices = slow.messages.filter((x) => x.event === 'dropped').map((x) => JSON.parse(x.data));
        const last = notices.at(-1)!;
        expect(last.totalDropped).toBe(notices.reduce((sum, n) => sum + n.dropped, 0));
        expect(last.totalDropped).toBeGreaterThan(0);
        const delivered = slow.envelopes().map((e) => e.envelope.id);
        // What it got is in order and ends at the newest event: it skipped to the live edge.
        expect(delivered.at(-1)).toBe(events.at(-1)!.id);
        const order = delivered.map((id) => events.findIndex((e) => e.id === id));
        expect([...order].sort((a, b) => a - b)).toEqual(order);
        // lastDroppedId names a dropped event's position: one the viewer never got.
        expect(slow.envelopes().map((e) => e.id)).not.toContain(last.lastDroppedId);
        expect(fastTook).toBeLessThan(60_000);
      } finally {
        slow.close();
        fast.close();
      }
    });

    it('reports viewers and events per type per bucket on /api/ops/feed/stats', async () => {
      const feed = await stream('?type=dip.');
      try {
        await feed.waitFor((m) => m.length > 0, 'the replay');
        const { status, body } = await get('/api/ops/feed/stats');
        expect(status).toBe(200);
        const stats = opsFeedStatsSchema.parse(body);
        expect(stats.instance).toBe('test');
        expect(stats.viewers.some((v) => v.filters.type.join() === 'dip.')).toBe(true);
        const counted = stats.rate.buckets.reduce((sum, b) => sum + (b.counts['share.viewed'] ?? 0), 0);
        expect(counted).toBeGreaterThanOrEqual(OPS_FEED_REPLAY + 30 + 400);
        expect(stats.rate.buckets).toHaveLength(60);
      } finally {
        feed.close();
      }
    });
  });

  describe('the correlation chain', () => {
    it('lists one request across services in publish order, with each consumer outcome and the email job', async () => {
      const correlationId = `req-${Date.now()}`;
      const email = `chain.${Date.now()}@example.com`;
      const chain: EventEnvelope[] = [
        testEvent('search.completed', { correlationId, source: 'search' }),
        testEvent('lead.captured', { correlationId, source: 'search' }),
        testEvent('identity.user.registered', { correlationId, source: 'identity' }),
        createEnvelope('identity', {
          type: IDENTITY_EVENT_TYPES.verificationRequested,
          subject: 'user-chain',
          correlationId,
          data: {
            userId: 'user-chain',
            email,
            name: 'Chain Person',
            verificationUrl: `http://localhost:8080/verify-email?token=secret-token&email=${encodeURIComponent(email)}`,
            expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
            reason: 'registration',
          },
        }),
        testEvent('dip.created', { correlationId, source: 'dip' }),
      ];
      poisoned.add(chain[4].id); // one consumer gives up on the DIP event
      for (const event of chain) {
        await publisher.publish(event);
        await sleep(5);
      }
      await publisher.publish(testEvent('search.completed', { correlationId: 'someone-else' }));
      await waitFor(async () => (await emailQueue.getJob(chain[3].id)) ?? null, 'the email job');
      await waitFor(() => effects.healthy.get(chain[4].id), 'the healthy consumer');
      await waitFor(
        async () =>
          (await get(`/api/ops/dead-letters?topic=dip.created`)).body.items.some(
            (d: any) => d.envelope.id === chain[4].id,
          ),
        'the dead letter',
      );

      const { status, body } = await get(`/api/ops/events?correlationId=${correlationId}`);
      expect(status).toBe(200);
      const answer: OpsChainResponse = opsChainResponseSchema.parse(body);
      expect(answer.correlationId).toBe(correlationId);
      expect(answer.events.map((e) => e.envelope.id)).toEqual(chain.map((e) => e.id));
      const verification = answer.events[3];
      expect(verification.consumers).toEqual([
        expect.objectContaining({ consumer: 'notifications', status: 'processed' }),
      ]);
      expect(verification.jobs).toEqual([
        expect.objectContaining({ queue: 'email', jobId: chain[3].id, state: expect.any(String) }),
      ]);
      const dip = answer.events[4];
      expect(dip.consumers).toEqual([
        expect.objectContaining({ consumer: 'test-healthy', status: 'processed' }),
        expect.objectContaining({
          consumer: 'test-poison',
          status: 'dead-lettered',
          attempts: 2,
          error: expect.stringContaining('the lender is unknown'),
        }),
      ]);
      // Events no group consumes have no outcomes, but are in the chain.
      expect(answer.events[0].consumers).toEqual([]);
      // The verification link is shown without its token.
      expect(JSON.stringify(body)).not.toContain('secret-token');
      expect((verification.envelope.data as { verificationUrl: string }).verificationUrl).toBe(
        'http://localhost:8080/verify-email?…',
      );

      const missing = await get('/api/ops/events');
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe(OPS_MESSAGES.correlationIdRequired);
    });
  });

  describe('dead letters', () => {
    const deadLetterOf = async (eventId: string) =>
      waitFor(async () => {
        const { body } = await get('/api/ops/dead-letters');
        return (body as OpsDeadLettersResponse).items.find((d) => d.envelope.id === eventId) ?? null;
      }, `the dead letter of ${eventId}`);

    it('lists them per topic with error and attempts; a replay is handled once by the fixed consumer and changes nothing for the others', async () => {
      const event = testEvent('dip.created', { source: 'dip' });
      poisoned.add(event.id);
      await publisher.publish(event);
      const dead = await deadLetterOf(event.id);
      expect(dead).toMatchObject({
        topic: 'dip.created',
        consumerGroup: 'test-poison',
        attempts: 2,
        status: 'open',
        replays: 0,
        error: expect.stringContaining('the lender is unknown'),
      });
      const { body } = await get('/api/ops/dead-letters?status=open');
      const list = opsDeadLettersResponseSchema.parse(body);
      expect(list.topics.find((t) => t.topic === 'dip.created')!.open).toBeGreaterThanOrEqual(1);
      expect(list.items.every((d) => d.status === 'open')).toBe(true);
      await waitFor(() => effects.healthy.get(event.id), 'the healthy consumer');
      expect(effects.poison.get(event.id)).toBeUndefined();

      // The handler is fixed; the replay reaches every consumer of the topic again.
      poisonFixed = true;
      const replay = await post(`/api/ops/dead-letters/${dead.id}/replay`);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual({ replayed: 1, ids: [dead.id] });
      await waitFor(() => effects.poison.get(event.id), 'the fixed consumer');
      // Both groups have now read the replayed entry (the stream holds it twice).
      await waitFor(async () => {
        const groups = (await redis.redis.xinfo('GROUPS', 'events:dip.created')) as unknown[][];
        return groups.every((g) => g[g.indexOf('pending') + 1] === 0 && g[g.indexOf('lag') + 1] === 0);
      }, 'both groups caught up');
      await sleep(300);
      expect(effects.poison.get(event.id)).toBe(1);
      expect(effects.healthy.get(event.id)).toBe(1); // already handled: no second effect
      const after = await get('/api/ops/dead-letters?status=replayed');
      expect(after.body.items.find((d: any) => d.id === dead.id)).toMatchObject({
        status: 'replayed',
        replays: 1,
        replayedBy: OPS_USER.email,
      });
      // Closed: a second replay is refused.
      const again = await post(`/api/ops/dead-letters/${dead.id}/replay`);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(OPS_MESSAGES.deadLetterClosed);
      poisonFixed = false;
    });

    it('lists the dead letters of the password events, which the catalogue once left out', async () => {
      for (const type of [
        IDENTITY_EVENT_TYPES.passwordResetRequested,
        IDENTITY_EVENT_TYPES.passwordChanged,
      ]) {
        const event = testEvent(type, { source: 'identity' });
        poisoned.add(event.id);
        await publisher.publish(event);
        const dead = await waitFor(async () => {
          const { body } = await get(`/api/ops/dead-letters?topic=${encodeURIComponent(type)}`);
          return (
            (body as OpsDeadLettersResponse).items.find(
              (d) => d.envelope.id === event.id && d.consumerGroup === 'test-poison',
            ) ?? null
          );
        }, `the dead letter of ${type}`);
        expect(dead).toMatchObject({ topic: type, status: 'open', attempts: 2 });
        // Closed again, so the topics' open counts of the other tests stay their own.
        expect(
          (await post(`/api/ops/dead-letters/${dead.id}/discard`, { reason: 'test event' })).status,
        ).toBe(200);
      }
    });

    it('discards with a reason that is kept, and replays all open ones of a topic', async () => {
      const [a, b, c] = [1, 2, 3].map(() => testEvent('dip.created', { source: 'dip' }));
      for (const event of [a, b, c]) {
        poisoned.add(event.id);
        await publisher.publish(event);
      }
      const [deadA, deadB, deadC] = [
        await deadLetterOf(a.id),
        await deadLetterOf(b.id),
        await deadLetterOf(c.id),
      ];

      const noReason = await post(`/api/ops/dead-letters/${deadA.id}/discard`, { reason: '  ' });
      expect(noReason.status).toBe(400);
      expect(noReason.body.error).toBe(OPS_MESSAGES.discardReasonRequired);
      const discarded = await post(`/api/ops/dead-letters/${deadA.id}/discard`, {
        reason: 'Test lender removed from the panel',
      });
      expect(discarded.status).toBe(200);
      expect(discarded.body).toMatchObject({
        id: deadA.id,
        status: 'discarded',
        discardReason: 'Test lender removed from the panel',
        discardedBy: OPS_USER.email,
      });
      expect((await post(`/api/ops/dead-letters/${deadA.id}/replay`)).status).toBe(409);
      expect((await post('/api/ops/dead-letters/no-such-id/replay')).status).toBe(404);
      expect((await post('/api/ops/dead-letters/no-such-id/discard', { reason: 'x' })).status).toBe(404);

      poisonFixed = true;
      const all = await post('/api/ops/dead-letters/replay', { topic: 'dip.created' });
      expect(all.status).toBe(200);
      expect(all.body.ids).toEqual(expect.arrayContaining([deadB.id, deadC.id]));
      expect(all.body.ids).not.toContain(deadA.id);
      await waitFor(() => effects.poison.get(b.id) && effects.poison.get(c.id), 'both replayed');
      expect(effects.poison.get(a.id)).toBeUndefined();
      const kept = await get('/api/ops/dead-letters?status=discarded');
      expect(kept.body.items.find((d: any) => d.id === deadA.id).discardReason).toBe(
        'Test lender removed from the panel',
      );
      const open = await get('/api/ops/dead-letters?status=open&topic=dip.created');
      expect(open.body.items).toEqual([]);
      poisonFixed = false;
    });
  });

  describe('queues', () => {
    it('counts the email and pdf queues, lists failed jobs with their error, and retries one', async () => {
      let failNext = true;
      const { hostname, port, pathname } = new URL(redis.url);
      pdfWorker = new Worker(
        'pdf',
        async () => {
          if (failNext) {
            failNext = false;
            throw new Error('Chromium crashed');
          }
          return 'rendered';
        },
        // Connection options rather than a connection: BullMQ then closes it with the worker.
        {
          connection: { host: hostname, port: Number(port), db: Number(pathname.slice(1)) || 0 },
          prefix: 'bull',
        },
      );
      await pdfQueue.add('render', { dipId: 'dip-1' }, { jobId: 'pdf-dip-1', attempts: 1 });
      const overview = async () =>
        opsQueuesResponseSchema.parse((await get('/api/ops/queues')).body) as OpsQueuesResponse;
      const failed = await waitFor(async () => {
        const pdf = (await overview()).queues.find((q) => q.name === 'pdf')!;
        return pdf.counts.failed === 1 ? pdf : null;
      }, 'the failed pdf job');
      expect(failed.failed).toEqual([
        expect.objectContaining({
          id: 'pdf-dip-1',
          name: 'render',
          failedReason: 'Chromium crashed',
          attemptsMade: 1,
        }),
      ]);
      const email = (await overview()).queues.find((q) => q.name === 'email')!;
      // The chain test's verification email is waiting (no email worker runs here); its link is shown without the token.
      expect(email.counts.waiting).toBeGreaterThanOrEqual(1);

      const notFailed = await post(
        `/api/ops/queues/email/jobs/${(await emailQueue.getWaiting())[0].id}/retry`,
      );
      expect(notFailed.status).toBe(409);
      expect(notFailed.body.error).toBe(OPS_MESSAGES.jobNotFailed);
      expect((await post('/api/ops/queues/pdf/jobs/nope/retry')).status).toBe(404);
      expect((await post('/api/ops/queues/other/jobs/1/retry')).status).toBe(404);

      const retried = await post('/api/ops/queues/pdf/jobs/pdf-dip-1/retry');
      expect(retried.status).toBe(200);
      expect(retried.body).toEqual({ ok: true, queue: 'pdf', jobId: 'pdf-dip-1' });
      const done = await waitFor(async () => {
        const pdf = (await overview()).queues.find((q) => q.name === 'pdf')!;
        return pdf.counts.completed === 1 ? pdf : null;
      }, 'the retried job completed');
      expect(done.counts.failed).toBe(0);
      expect(done.failed).toEqual([]);
    });

    it('never shows the token of a link in a job', async () => {
      const jobs = await emailQueue.getWaiting();
      const job = jobs.find((j) => (j.data as { verificationUrl?: string }).verificationUrl);
      expect(job).toBeDefined();
      await job!.moveToFailed(new Error('SMTP refused'), '0', false).catch(() => undefined);
      const { body } = await get('/api/ops/queues');
      expect(JSON.stringify(body)).not.toContain('secret-token');
    });
  });

  describe('through the gateway', () => {
    let gateway: TestGateway;
    beforeAll(async () => {
      gateway = await startTestGateway({ redisUrl: redis.url, upstreams: { notifications: service.url } });
    });
    afterAll(async () => {
      await gateway?.close();
    });

    /** A signed-in session as identity writes it, and its signed cookie. */
    const session = async (roles: string[]) => {
      const id = `ops-test-${Date.now()}-${roles.join('')}`;
      const record = {
        userId: `user-${id}`,
        email: `${id}@example.com`,
        name: 'Gateway User',
        verified: true,
        createdAt: new Date().toISOString(),
        roles,
      };
      await redis.redis.set(sessionKey(id), JSON.stringify(record), 'EX', 600);
      return { cookie: `${SESSION_COOKIE}=${gateway.app.signCookie(id)}` };
    };

    it('streams the feed to an ops session, and refuses others with 401 and 403', async () => {
      const subject = `gateway-${Date.now()}`;
      const ops = await session(['ops']);
      const feed = await openStream(gateway.url, `/api/ops/events/stream?subject=${subject}`, ops);
      try {
        expect(feed.status).toBe(200);
        const event = testEvent('search.completed', { subject });
        await publisher.publish(event);
        await feed.waitFor(
          (m) => m.some((x) => x.event === 'message'),
          'the event through the gateway',
          2000,
        );
        expect(feed.envelopes()[0].envelope).toEqual(event);
      } finally {
        feed.close();
      }
      const borrower = await session([]);
      expect((await fetch(`${gateway.url}/api/ops/health`, { headers: borrower })).status).toBe(403);
      expect((await fetch(`${gateway.url}/api/ops/health`)).status).toBe(401);
      // Identity headers a client sends itself are dropped by the gateway.
      const forged = await fetch(`${gateway.url}/api/ops/health`, { headers: asOps() });
      expect(forged.status).toBe(401);
    });
  });

  describe('the health grid', () => {
    it('reports each process up or down, its p99 and error rate over the last minute, and consumer lag', async () => {
      const first = opsHealthResponseSchema.parse((await get('/api/ops/health')).body) as OpsHealthResponse;
      expect(first.eventBus).toBe('redis');
      const down = first.processes.find((p) => p.name === 'email-worker')!;
      expect(down).toMatchObject({ up: false, status: 'unreachable', p99Ms: null, version: null });
      expect(down.error).toBeTruthy();
      const search = first.processes.find((p) => p.name === 'search')!;
      expect(search).toMatchObject({
        up: true,
        status: 'ok',
        version: PLATFORM_VERSION,
        checks: { mongodb: { status: 'ok' } },
      });
      expect(search.p99Ms).toBeNull(); // one scrape: no window yet

      // The process answered 20 requests in 40 ms and failed 5: recorded as its request hook records
      // them, so the grid's figures do not depend on how busy this machine is.
      for (let i = 0; i < 20; i++)
        targetMetrics.httpDuration.observe({ method: 'GET', route: '/slow', status: '200' }, 0.04);
      for (let i = 0; i < 5; i++)
        targetMetrics.httpDuration.observe({ method: 'GET', route: '/boom', status: '500' }, 0.002);
      // The process handled dip.created 10 times, 8 within 10 ms of commit and 2 after 3 s (a relay's poll).
      const hooks = targetMetrics.eventHooks;
      for (let i = 0; i < 10; i++) {
        const ageMs = i < 8 ? 4 : 3000;
        hooks.onConsumed('dip.created', {
          time: new Date(Date.now() - ageMs).toISOString(),
          consumerGroup: 'test-propagation',
        });
      }
      await sleep(2100); // past the grid's short cache
      const second = opsHealthResponseSchema.parse((await get('/api/ops/health')).body) as OpsHealthResponse;
      const now = second.processes.find((p) => p.name === 'search')!;
      expect(now.requestsLastMinute).toBe(25);
      expect(now.errorRate).toBeCloseTo(5 / 25, 5);
      expect(now.p99Ms).toBeGreaterThanOrEqual(25);
      expect(now.p99Ms).toBeLessThanOrEqual(100);
      expect(now.outboxBacklog).toBeNull();

      // Commit to handled per event type and group over the last minute.
      const propagation = second.propagation.find((p) => p.consumerGroup === 'test-propagation');
      expect(propagation).toMatchObject({ type: 'dip.created', handledLastMinute: 10 });
      expect(propagation!.p50Ms).toBeLessThanOrEqual(10);
      expect(propagation!.p99Ms).toBeGreaterThanOrEqual(2500);
      expect(first.propagation.find((p) => p.consumerGroup === 'test-propagation')).toBeUndefined();

      // Consumer groups of the event streams, with lag and pending entries.
      expect(second.consumerLag).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            consumerGroup: 'test-healthy',
            topic: 'dip.created',
            lag: 0,
            pending: 0,
          }),
          expect.objectContaining({
            consumerGroup: 'notifications',
            topic: 'identity.verification.requested',
          }),
        ]),
      );
    });
  });
});
