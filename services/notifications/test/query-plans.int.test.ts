// The plans of notifications' own reads: the operations console's dead letters, webhooks, alerts and
// the development mailbox run against the indexes notifications creates, the find or aggregate each
// sent is explained as sent, and the plan must read through the index meant for it.
import { createEnvelope } from '@lsp/contracts';
import type { EventBus } from '@lsp/service-kit';
import { expectIndexedPlan, silentLogger, startQueryPlans, useHarness } from '@lsp/testing';
import { AlertStore } from '../src/data/alerts';
import { startMailCatcher } from '../src/dev-mail/catcher';
import { DeadLetters } from '../src/ops/dead-letters';
import { listMail } from '../src/use-cases/dev-mailbox';
import { WebhookStore } from '../src/webhooks/store';

const NOW = Date.UTC(2026, 10, 1);
const MINUTE_MS = 60_000;
const TOPICS = ['dip.created', 'search.saved', 'share.created', 'identity.user.registered'];
const STATUSES = ['open', 'replayed', 'discarded'] as const;

const q = useHarness(() => startQueryPlans('notifications'));
const published: unknown[] = [];
const bus = { publish: async (envelope: unknown) => void published.push(envelope) } as unknown as EventBus;
let deadLetters: DeadLetters;
let webhooks: WebhookStore;
let alerts: AlertStore;

beforeAll(async () => {
  deadLetters = await DeadLetters.open(q.db, bus);
  webhooks = new WebhookStore(q.db);
  // The tries' index an earlier release made, which ensureIndexes replaces.
  await q.db.collection('webhook_deliveries').createIndex({ endpointId: 1, at: -1 }, { name: 'endpoint_at' });
  await webhooks.ensureIndexes();
  await webhooks.ensureIndexes();
  alerts = new AlertStore(q.db);
  // The catcher makes the mailbox's collection as it starts; it is stopped again at once.
  const catcher = await startMailCatcher({ port: 0, mongo: q.db, logger: silentLogger() });
  await catcher.close();
  // 300 dead letters over four topics, each kept as the collector keeps it, then replayed or discarded.
  for (let i = 0; i < 300; i++) {
    const envelope = createEnvelope('dip', {
      type: TOPICS[i % TOPICS.length],
      subject: `subject-${i}`,
      correlationId: `correlation-${i}`,
      data: { n: i },
    });
    await deadLetters.record(envelope, {
      attempt: 5,
      deadLetter: {
        consumerGroup: 'notifications',
        attempts: 5,
        error: 'handler failed',
        failedAt: new Date(NOW - i * MINUTE_MS).toISOString(),
      },
    });
  }
  const letters = await deadLetters
    .collection()
    .find({}, { projection: { _id: 1 } })
    .toArray();
  for (const [i, { _id }] of letters.entries())
    if (STATUSES[i % 3] !== 'open')
      await deadLetters.collection().updateOne({ _id }, { $set: { status: STATUSES[i % 3] } });
  // 20 users with up to ten endpoints each; 400 tries of three endpoints.
  await webhooks.endpoints().insertMany(
    Array.from({ length: 200 }, (_, i) => ({
      _id: `endpoint-${i}`,
      userId: `user-${i % 20}`,
      url: `https://hooks.example.com/${i}`,
      secret: 'whsec_x',
      events: ['dip.created'],
      status: i % 4 ? 'enabled' : 'disabled',
      createdAt: new Date(NOW - i * MINUTE_MS),
      disabledAt: null,
    })) as never[],
  );
  await q.db.collection('webhook_deliveries').insertMany(
    Array.from({ length: 400 }, (_, i) => ({
      _id: `endpoint-${i % 3}:event-${i}:1`,
      endpointId: `endpoint-${i % 3}`,
      eventId: `event-${i}`,
      type: 'dip.created',
      attempt: 1 + (i % 2),
      statusCode: 200,
      error: null,
      delivered: true,
      durationMs: 12,
      at: new Date(NOW - i * MINUTE_MS),
      expireAt: new Date(NOW + 30 * 24 * 60 * MINUTE_MS),
    })) as never[],
  );
  await q.db.collection('caught_mail').insertMany(
    Array.from({ length: 250 }, (_, i) => ({
      _id: `mail-${i}`,
      from: 'noreply@example.com',
      to: [`person-${i}@example.com`],
      subject: `Message ${i}`,
      text: '',
      html: '',
      links: [],
      receivedAt: new Date(NOW - i * MINUTE_MS),
    })) as never[],
  );
  for (let i = 0; i < 100; i++) {
    await alerts.saveRecipient(`user-${i}`, `person-${i}@example.com`, `Person ${i}`);
    await alerts.setRepricingAlerts(`user-${i}`, i % 2 === 0);
  }
});

describe('dead letters (the operations console)', () => {
  it('the newest letters of a status, or of every status, in the index’s order', async () => {
    for (const query of [{ status: 'open' as const }, {}]) {
      // The page of letters; the second read counts every letter by topic and status (a $group of
      // the whole collection, which no index answers).
      const reads = await q.readsOf(() => deadLetters.list({ ...query, limit: 100 }));
      expect(reads.map((read) => read.name).sort()).toEqual(['aggregate', 'find']);
      const list = reads.find((read) => read.name === 'find')!;
      expectIndexedPlan(await q.planOf(list), {
        index: ['status_newest', 'newest'],
        sortedByIndex: true,
      });
    }
  });

  it('the letters of a topic and status, and those of an event', async () => {
    const list = (
      await q.readsOf(() => deadLetters.list({ status: 'open', topic: 'search.saved', limit: 100 }))
    ).find((read) => read.name === 'find')!;
    expectIndexedPlan(await q.planOf(list), { index: 'status_topic' });
    const byEvent = await q.readOf('ops_dead_letters', () => deadLetters.forEvent('event-7'));
    expectIndexedPlan(await q.planOf(byEvent), { index: 'event' });
  });

  it('replaying every open letter, of one topic or all, oldest first', async () => {
    // The first read finds the letters to replay; each replay then claims its letter by id.
    const [ofTopic] = await q.readsOf(() => deadLetters.replayAll('share.created', 'ops@example.com'));
    expectIndexedPlan(await q.planOf(ofTopic), { index: 'status_topic', sortedByIndex: true });
    const [all] = await q.readsOf(() => deadLetters.replayAll(undefined, 'ops@example.com'));
    expectIndexedPlan(await q.planOf(all), { index: 'status_newest', sortedByIndex: true });
    expect(published.length).toBeGreaterThan(0);
  });
});

describe('webhooks', () => {
  it('a user’s endpoints, their count, one of them, and those subscribed to an event', async () => {
    const reads = await q.readsOf(async () => {
      await webhooks.list('user-7');
      await webhooks.count('user-7');
      await webhooks.owned('user-7', 'endpoint-7');
      await webhooks.subscribers('user-7', 'dip.created');
    });
    expect(reads).toHaveLength(4);
    // A user holds ten endpoints at most: the list sorts what the owner index found.
    for (const read of [reads[0], reads[1], reads[3]])
      expectIndexedPlan(await q.planOf(read), { index: 'owner' });
    expectIndexedPlan(await q.planOf(reads[2]), { index: '_id_' });
  });

  it('an endpoint’s latest tries, newest first, in the index’s order', async () => {
    const read = await q.readOf('webhook_deliveries', () => webhooks.tries('endpoint-1'));
    expectIndexedPlan(await q.planOf(read), { index: 'endpoint_newest', sortedByIndex: true });
    // The index it replaced is gone, and making the indexes again (every start) changes nothing.
    const names = (await q.db.collection('webhook_deliveries').indexes()).map((index) => index.name);
    expect(names.sort()).toEqual(['_id_', 'endpoint_newest', 'expire']);
  });
});

describe('alerts and the development mailbox', () => {
  it('whom to write to, and whether they want re-pricing alerts', async () => {
    const reads = await q.readsOf(async () => {
      await alerts.recipient('user-7');
      await alerts.repricingAlertsOn('user-7');
    });
    expect(reads).toHaveLength(2);
    for (const read of reads) expectIndexedPlan(await q.planOf(read), { index: '_id_' });
  });

  it('the newest caught messages, in the index’s order', async () => {
    const read = await q.readOf('caught_mail', () => listMail({ mongo: q.db }));
    expectIndexedPlan(await q.planOf(read), { index: 'newest', sortedByIndex: true });
  });
});
