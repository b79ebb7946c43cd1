// The plans of the outbox's and the processed-event markers' own reads, which every service runs:
// the relay's poll, the publish at commit, the backlog gauge and the marker lookups run against the
// indexes Outbox.open and ProcessedEvents.open create, and what each sent is explained as sent.
import { type EventEnvelope, createEnvelope } from '@lsp/contracts';
import { expectIndexedPlan, startQueryPlans, useHarness } from '@lsp/testing';
import { Types } from 'mongoose';
import { Outbox, OutboxRelay, ProcessedEvents } from '../src/events';

const published: EventEnvelope[] = [];
const bus = { publish: async (envelope: EventEnvelope) => void published.push(envelope) };
const envelope = (n: number) =>
  createEnvelope('dip', { type: 'dip.created', subject: `dip-${n}`, data: { dipId: `dip-${n}`, n } });

const q = useHarness(() => startQueryPlans('outbox'));
let outbox: Outbox;
let processed: ProcessedEvents;

beforeAll(async () => {
  outbox = await Outbox.open(q.db);
  processed = await ProcessedEvents.open(q.db);
  // 400 entries a week old and younger: all published but the last 20, as a relay leaves them.
  const start = Date.now() - 7 * 24 * 3600_000;
  await outbox.collection().insertMany(
    Array.from({ length: 400 }, (_, i) => {
      const event = envelope(i);
      const createdAt = new Date(start + i * 60_000);
      return {
        _id: Types.ObjectId.createFromTime(createdAt.getTime() / 1000),
        eventId: event.id,
        type: event.type,
        subject: event.subject,
        payload: JSON.stringify(event),
        createdAt,
        publishedAt: i < 380 ? new Date(createdAt.getTime() + 1000) : null,
        attempts: i < 380 ? 1 : 0,
      };
    }),
  );
  await processed.collection().insertMany(
    Array.from({ length: 300 }, (_, i) => ({
      _id: `search:event-${i}`,
      consumer: 'search',
      eventId: `event-${i}`,
      type: 'dip.created',
      processedAt: new Date(start + i * 60_000),
    })),
  );
});

describe('the outbox', () => {
  it('the relay’s poll: the oldest unpublished entries, found through the publishedAt index', async () => {
    // Unpublished entries are few (each is published at commit), so they are sorted once found.
    const relay = new OutboxRelay({ outbox, bus });
    const poll = await q.readOf('outbox', () => relay.publishPending());
    expectIndexedPlan(await q.planOf(poll), { index: 'published_ttl' });
    expect(published).toHaveLength(20);
    // Its lease handed on, for the next relay.
    await relay.stop();
    // Where the committing process publishes, the relay leaves it the young entries.
    const committing = await Outbox.open(q.db);
    committing.publishAtCommit({ bus });
    const graceful = new OutboxRelay({ outbox: committing, bus });
    const graced = await q.readOf('outbox', () => graceful.publishPending());
    expectIndexedPlan(await q.planOf(graced), { index: 'published_ttl' });
    await graceful.stop();
  });

  it('the publish at commit reads back, by id, the entries of a transaction whose commit is not known', async () => {
    const committing = await Outbox.open(q.db);
    committing.publishAtCommit({ bus });
    const readBack = await q.readOf('outbox', async () => {
      await q.db
        .transaction(async (session) => {
          await committing.add([envelope(1000), envelope(1001)], session);
          throw new Error('refused after the add');
        })
        .catch(() => undefined);
      await committing.drain();
    });
    expectIndexedPlan(await q.planOf(readBack), { index: '_id_' });
  });

  it('the backlog gauge counts the unpublished entries through the publishedAt index', async () => {
    const count = await q.readOf('outbox', () => outbox.countPending());
    expectIndexedPlan(await q.planOf(count), { index: 'published_ttl' });
  });
});

describe('processed events', () => {
  it('a consumer’s marker for an event, by id, in its transaction and outside it', async () => {
    const inHandler = await q.readOf('processed_events', () =>
      processed.handleOnce('search', { id: 'event-7', type: 'dip.created' }, async () => undefined),
    );
    expectIndexedPlan(await q.planOf(inHandler), { index: '_id_' });
    const asked = await q.readOf('processed_events', () => processed.isProcessed('search', 'event-8'));
    expectIndexedPlan(await q.planOf(asked), { index: '_id_' });
  });
});
