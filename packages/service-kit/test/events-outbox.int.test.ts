import { type EventEnvelope, createEnvelope } from '@lsp/contracts';
import { MongoServerError } from 'mongodb';
import type { Connection } from 'mongoose';
import { type EventBus, Outbox, OutboxRelay, ProcessedEvents, RedisStreamsEventBus } from '../src/events';
import { quietPollDelay } from '../src/events/outbox';
import {
  PrivateRedis,
  REDIS_URL,
  closedAfterEach,
  deleteKeysWithPrefix,
  openTestMongo,
  uniqueId,
  waitFor,
} from './events-helpers';

let mongo: Awaited<ReturnType<typeof openTestMongo>>;
let connection: Connection;
const prefix = `test:outbox:${uniqueId()}:`;

beforeAll(async () => {
  mongo = await openTestMongo();
  connection = mongo.connection;
});
afterAll(async () => {
  await mongo.stop();
  await deleteKeysWithPrefix(REDIS_URL, prefix);
});

/** A bus double that records what it was given and fails while `down` is set. */
function recordingBus() {
  const published: EventEnvelope[] = [];
  const bus = {
    down: false,
    published,
    async publish(envelope: EventEnvelope) {
      if (bus.down) throw new Error('connect ECONNREFUSED');
      published.push(envelope);
    },
  };
  return bus;
}

const dipCreated = (dipId: string, n = 0) =>
  createEnvelope('dip', { type: 'dip.created', subject: dipId, data: { dipId, n } });

describe('Outbox', () => {
  let outbox: Outbox;
  const relays = closedAfterEach((made: OutboxRelay) => made.stop());
  beforeEach(async () => {
    outbox = await Outbox.open(connection, { collectionName: `outbox_${uniqueId()}` });
  });
  const relay = (bus: Pick<EventBus, 'publish'>, options: { pollIntervalMs?: number } = {}) =>
    relays.keep(new OutboxRelay({ outbox, bus, initialRetryDelayMs: 20, maxRetryDelayMs: 100, ...options }));

  it('keeps the event with the state change when the transaction commits, and neither when it aborts', async () => {
    const dips = connection.collection(`dips_${uniqueId()}`);
    await dips.insertOne({ _id: 'seed' as never });
    const kept = dipCreated('dip-1');
    await connection.transaction(async (session) => {
      await dips.insertOne({ _id: 'dip-1' as never }, { session });
      await outbox.add([kept], session);
    });
    await expect(
      connection.transaction(async (session) => {
        await dips.insertOne({ _id: 'dip-2' as never }, { session });
        await outbox.add([dipCreated('dip-2')], session);
        throw new Error('validation failed after the writes');
      }),
    ).rejects.toThrow('validation failed');

    expect(await dips.countDocuments({ _id: { $in: ['dip-1', 'dip-2'] as never[] } })).toBe(1);
    const entries = await outbox.collection().find().toArray();
    expect(entries.map((e) => e.eventId)).toEqual([kept.id]);
    expect(entries[0]).toMatchObject({
      type: 'dip.created',
      subject: 'dip-1',
      publishedAt: null,
      attempts: 0,
    });
  });

  it('publishes entries in the order they were added and marks them published, keeping them for audit', async () => {
    const bus = recordingBus();
    const events = Array.from({ length: 25 }, (_, n) => dipCreated(`dip-${n % 3}`, n));
    for (let i = 0; i < events.length; i += 5) await outbox.add(events.slice(i, i + 5));
    relay(bus).start();

    await waitFor(() => bus.published.length === 25, 'all events');
    expect(bus.published).toEqual(events);
    await waitFor(async () => (await outbox.countPending()) === 0, 'every entry marked');
    const entries = await outbox.collection().find().toArray();
    expect(entries).toHaveLength(25);
    expect(entries.every((e) => e.publishedAt instanceof Date && e.attempts === 1)).toBe(true);
    const indexes = await outbox.collection().indexes();
    expect(indexes.find((index) => index.name === 'published_ttl')).toMatchObject({
      key: { publishedAt: 1 },
      expireAfterSeconds: 7 * 24 * 3600,
    });
  });

  it('is woken by a committed add instead of waiting for the next poll', async () => {
    const bus = recordingBus();
    const relayed = relay(bus, { pollIntervalMs: 10 * 60_000 });
    relayed.start();
    // Let the first (empty) poll pass so the relay is asleep for ten minutes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const event = dipCreated('dip-7');
    await connection.transaction((session) => outbox.add([event], session));

    await waitFor(() => bus.published.length === 1, 'the woken relay to publish');
    expect(bus.published[0].id).toBe(event.id);
  });

  it('is published at commit by the process that added it, though another process holds the relay lease', async () => {
    // Two processes share one outbox (dip and its PDF worker): the other holds the lease and polls
    // hourly, so only publishing at commit can get the event out.
    const leaseHolder = recordingBus();
    relay(leaseHolder, { pollIntervalMs: 3600_000 }).start();
    await waitFor(
      async () =>
        (await connection
          .collection<{ _id: string }>('outbox_relay_lease')
          .countDocuments({ _id: outbox.collectionName })) > 0,
      'the lease',
    );
    const committer = recordingBus();
    outbox.publishAtCommit({ bus: committer });
    const event = dipCreated('dip-9');
    await connection.transaction((session) => outbox.add([event], session));
    await outbox.drain();
    expect(committer.published.map((e) => e.id)).toEqual([event.id]);
    expect(leaseHolder.published).toEqual([]);
    expect(await outbox.countPending()).toBe(0);
  });

  it('publishes nothing at commit for an aborted transaction, nor for the attempts a retried one dropped', async () => {
    const bus = recordingBus();
    outbox.publishAtCommit({ bus });
    await expect(
      connection.transaction(async (session) => {
        await outbox.add([dipCreated('dip-10')], session);
        throw new Error('refused after the add');
      }),
    ).rejects.toThrow('refused');
    const kept = dipCreated('dip-11');
    let attempt = 0;
    await connection.transaction(async (session) => {
      await outbox.add([attempt === 0 ? dipCreated('dip-dropped') : kept], session);
      // The driver runs the callback again after a transient error, as after a write conflict.
      if (attempt++ === 0)
        throw new MongoServerError({
          errmsg: 'WriteConflict',
          code: 112,
          errorLabels: ['TransientTransactionError'],
        });
    });
    await outbox.drain();
    expect(attempt).toBe(2);
    expect(bus.published.map((e) => e.id)).toEqual([kept.id]);
  });

  it('leaves an entry it could not publish at commit to the relay, which publishes it after the grace', async () => {
    const down = recordingBus();
    down.down = true;
    outbox.publishAtCommit({ bus: down });
    const event = dipCreated('dip-12');
    await connection.transaction((session) => outbox.add([event], session));
    await outbox.drain();
    expect(await outbox.countPending()).toBe(1);
    const up = recordingBus();
    // A relay with no grace (the committer has given up on this entry) publishes it on its next poll.
    const noGrace = new OutboxRelay({ outbox, bus: up, pollIntervalMs: 100, commitGraceMs: 0 });
    relays.keep(noGrace);
    noGrace.start();
    await waitFor(() => up.published.length === 1, 'the relay to publish the entry left behind');
    expect(up.published[0].id).toBe(event.id);
  });

  it('is woken by a publish at commit that failed, though resting for an hour', async () => {
    const relayBus = recordingBus();
    const resting = new OutboxRelay({ outbox, bus: relayBus, pollIntervalMs: 3600_000, commitGraceMs: 0 });
    const polls = jest.spyOn(resting, 'publishPending');
    relays.keep(resting);
    resting.start();
    await waitFor(() => polls.mock.calls.length === 1, 'the relay’s first poll');
    const down = recordingBus();
    down.down = true;
    outbox.publishAtCommit({ bus: down });
    const event = dipCreated('dip-13');
    await connection.transaction((session) => outbox.add([event], session));
    await outbox.drain();
    await waitFor(() => relayBus.published.length === 1, 'the woken relay to publish what failed at commit');
    expect(relayBus.published[0].id).toBe(event.id);
    expect(down.published).toEqual([]);
  });

  it('lets one of several relays publish at a time and hands over when it stops', async () => {
    const first = recordingBus();
    const second = recordingBus();
    const events = Array.from({ length: 30 }, (_, n) => dipCreated('dip-8', n));
    await outbox.add(events.slice(0, 15));
    const leader = relay(first);
    leader.start();
    await waitFor(() => first.published.length === 15, 'the first relay to publish');
    relay(second).start();
    await outbox.add(events.slice(15, 20));
    await waitFor(() => first.published.length === 20, 'the leader to publish the next events');

    await leader.stop();
    await outbox.add(events.slice(20));
    await waitFor(() => second.published.length === 10, 'the second relay to take over');
    expect([...first.published, ...second.published]).toEqual(events);
  });

  it('holds events while the bus refuses them and publishes every one, in order, once it is back', async () => {
    const bus = recordingBus();
    bus.down = true;
    const events = Array.from({ length: 10 }, (_, n) => dipCreated('dip-9', n));
    await outbox.add(events.slice(0, 5));
    relay(bus).start();
    await waitFor(
      async () => ((await outbox.collection().findOne({}, { sort: { _id: 1 } }))?.attempts ?? 0) >= 3,
      'retries',
    );
    await outbox.add(events.slice(5));
    expect(await outbox.countPending()).toBe(10);
    expect((await outbox.collection().findOne({}, { sort: { _id: 1 } }))?.lastError).toBe(
      'Error: connect ECONNREFUSED',
    );

    bus.down = false;
    await waitFor(() => bus.published.length === 10, 'the backlog');
    expect(bus.published).toEqual(events);
    await waitFor(async () => (await outbox.countPending()) === 0, 'every entry marked');
  });

  it('delivers through a real Redis that goes down and comes back, losing and reordering nothing', async () => {
    const redis = await PrivateRedis.start();
    const received: number[] = [];
    const publisher = new RedisStreamsEventBus({ redisUrl: redis.url, prefix });
    const consumer = new RedisStreamsEventBus({
      redisUrl: redis.url,
      prefix,
      blockMs: 200,
      claimIntervalMs: 100,
    });
    consumer.subscribe({
      consumerGroup: 'sharing',
      types: ['dip.created'],
      handler: async (envelope) => void received.push((envelope.data as { n: number }).n),
    });
    const relayed = relay(publisher);
    try {
      await consumer.start();
      relayed.start();
      await outbox.add([dipCreated('dip-5', 0)]);
      await waitFor(() => received.length === 1, 'the first event before the outage');

      await redis.down();
      for (let n = 1; n <= 20; n++) {
        await connection.transaction((session) => outbox.add([dipCreated('dip-5', n)], session));
      }
      await waitFor(
        async () => ((await outbox.collection().findOne({ publishedAt: null }))?.attempts ?? 0) >= 2,
        'failed publishes',
      );
      expect(await outbox.countPending()).toBe(20);

      await redis.up();
      await waitFor(() => received.length === 21, 'all twenty-one events', 30_000);
      expect(received).toEqual(Array.from({ length: 21 }, (_, n) => n));
      await waitFor(async () => (await outbox.countPending()) === 0, 'every entry marked');
    } finally {
      await relayed.stop();
      await consumer.close();
      await publisher.close();
      await redis.destroy();
    }
  });
});

describe('ProcessedEvents.handleOnce', () => {
  let processed: ProcessedEvents;
  const effects = () => connection.collection<{ eventId: string }>('effects');
  beforeAll(async () => {
    processed = await ProcessedEvents.open(connection);
  });

  it('applies the effect of a redelivered event once', async () => {
    const event = dipCreated('dip-11');
    const effect = (session: import('mongoose').ClientSession) =>
      effects()
        .insertOne({ eventId: event.id }, { session })
        .then(() => undefined);

    expect(await processed.handleOnce('sharing', event, effect)).toBe(true);
    expect(await processed.handleOnce('sharing', event, effect)).toBe(false);
    expect(await effects().countDocuments({ eventId: event.id })).toBe(1);
    expect(await processed.isProcessed('sharing', event.id)).toBe(true);
  });

  it('keys the marker by consumer, so each consumer applies its own effect', async () => {
    const event = dipCreated('dip-12');
    const ran: string[] = [];
    for (const consumer of ['sharing', 'notifications', 'sharing']) {
      await processed.handleOnce(consumer, event, async () => void ran.push(consumer));
    }
    expect(ran).toEqual(['sharing', 'notifications']);
    expect(await processed.collection().findOne({ _id: `notifications:${event.id}` })).toMatchObject({
      consumer: 'notifications',
      eventId: event.id,
      type: 'dip.created',
    });
  });

  it('rolls the marker back with a failed effect, so the retry runs the effect', async () => {
    const event = dipCreated('dip-13');
    const failing = processed.handleOnce('sharing', event, async (session) => {
      await effects().insertOne({ eventId: event.id }, { session });
      throw new Error('downstream rejected');
    });
    await expect(failing).rejects.toThrow('downstream rejected');
    expect(await processed.isProcessed('sharing', event.id)).toBe(false);
    expect(await effects().countDocuments({ eventId: event.id })).toBe(0);

    expect(
      await processed.handleOnce('sharing', event, async (session) => {
        await effects().insertOne({ eventId: event.id }, { session });
      }),
    ).toBe(true);
    expect(await effects().countDocuments({ eventId: event.id })).toBe(1);
  });

  it('applies the effect once when two deliveries of one event race', async () => {
    const event = dipCreated('dip-14');
    const results = await Promise.all(
      [1, 2].map(() =>
        processed.handleOnce('sharing', event, async (session) => {
          await effects().insertOne({ eventId: event.id }, { session });
        }),
      ),
    );
    expect(results.sort()).toEqual([false, true]);
    expect(await effects().countDocuments({ eventId: event.id })).toBe(1);
  });
});

describe('quietPollDelay', () => {
  it('waits the interval after the first quiet poll, then doubles up to the maximum', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((quiet) => quietPollDelay(quiet, 5000, 60_000))).toEqual([
      5000, 5000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    expect(quietPollDelay(1_000, 5000, 60_000)).toBe(60_000);
  });

  it('never waits less than the interval, whatever the maximum', () => {
    expect(quietPollDelay(3, 5000, 1000)).toBe(5000);
  });
});
