import { createEnvelope } from '@lsp/contracts';
import { Redis } from 'ioredis';
import { RedisStreamsEventBus, createEventBus } from '../src/events';
import { nextClaimInterval } from '../src/events/redis-streams-bus';
import { eventBusContract } from './events-contract';
import {
  PrivateRedis,
  REDIS_URL,
  closedAfterEach,
  deleteKeysWithPrefix,
  uniqueId,
  waitFor,
} from './events-helpers';

const prefix = `test:events:${uniqueId()}:`;

afterAll(() => deleteKeysWithPrefix(REDIS_URL, prefix));

describe('EventBus contract: Redis Streams', () => {
  eventBusContract(({ retry, metrics }) =>
    createEventBus({
      kind: 'redis',
      redisUrl: REDIS_URL,
      prefix,
      retry,
      metrics,
      blockMs: 200,
      claimIntervalMs: 50,
    }),
  );
});

describe('Redis Streams adapter', () => {
  const buses = closedAfterEach((made: RedisStreamsEventBus) => made.close());
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(() => redis.quit());
  const bus = (options: Partial<ConstructorParameters<typeof RedisStreamsEventBus>[0]> = {}) =>
    buses.keep(
      new RedisStreamsEventBus({
        redisUrl: REDIS_URL,
        prefix,
        blockMs: 200,
        claimIntervalMs: 50,
        ...options,
      }),
    );

  it('trims each stream to about maxLen entries', async () => {
    const type = `test.${uniqueId()}.search.completed`;
    const publisher = bus({ maxLen: 100 });
    for (let i = 0; i < 1000; i++)
      await publisher.publish(createEnvelope('search', { type, subject: `s-${i}`, data: { i } }));
    const length = await redis.xlen(`${prefix}${type}`);
    // MAXLEN ~ trims whole radix-tree nodes (100 entries by default), so it keeps a little more than asked.
    expect(length).toBeGreaterThanOrEqual(100);
    expect(length).toBeLessThan(300);
  });

  it('publishes a burst issued before its connection is up', async () => {
    const type = `test.${uniqueId()}.search.saved`;
    const publisher = bus();
    const burst = Array.from({ length: 20 }, (_, i) =>
      createEnvelope('search', { type, subject: `s-${i}`, data: {} }),
    );
    await Promise.all(burst.map((event) => publisher.publish(event)));
    expect(await redis.xlen(`${prefix}${type}`)).toBe(20);
  });

  it('acknowledges an entry only once its handler has resolved', async () => {
    const type = `test.${uniqueId()}.dip.created`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let handled = false;
    const consumer = bus();
    consumer.subscribe({
      consumerGroup: 'sharing',
      types: [type],
      handler: async () => {
        await held;
        handled = true;
      },
    });
    await consumer.start();
    await bus().publish(createEnvelope('dip', { type, subject: 'dip-1', data: {} }));
    const pendingCount = async () => ((await redis.xpending(`${prefix}${type}`, 'sharing')) as [number])[0];

    await waitFor(async () => (await pendingCount()) === 1, 'the entry to be delivered');
    release();
    await waitFor(() => handled, 'the handler');
    await waitFor(async () => (await pendingCount()) === 0, 'the acknowledgement');
  });

  it('dead-letters an entry that was delivered maxAttempts times without an acknowledgement', async () => {
    const type = `test.${uniqueId()}.share.viewed`;
    const key = `${prefix}${type}`;
    // Three consumers that each took the entry and died (delivery count 3, owner gone).
    await redis.xgroup('CREATE', key, 'sharing', '0', 'MKSTREAM');
    await redis.xadd(
      key,
      '*',
      'envelope',
      JSON.stringify(createEnvelope('sharing', { type, subject: 's-1', data: {} })),
    );
    await redis.xreadgroup('GROUP', 'sharing', 'dead-consumer', 'COUNT', 1, 'STREAMS', key, '>');
    for (let i = 0; i < 2; i++)
      await redis.xclaim(key, 'sharing', 'dead-consumer', 0, (await redis.xrange(key, '-', '+'))[0][0]);

    const handled: string[] = [];
    const consumer = bus({ retry: { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 10 }, claimIdleMs: 100 });
    consumer.subscribe({
      consumerGroup: 'sharing',
      types: [type],
      handler: async (e) => void handled.push(e.id),
    });
    await consumer.start();

    await waitFor(async () => (await redis.xlen(`${key}.dlq`)) === 1, 'the dead letter');
    const [[, fields]] = await redis.xrange(`${key}.dlq`, '-', '+');
    expect(fields).toEqual(expect.arrayContaining(['error', 'delivered 3 times without being acknowledged']));
    expect(handled).toEqual([]);
  });

  it('starts while Redis is unreachable and consumes once it answers', async () => {
    const type = `test.${uniqueId()}.lead.captured`;
    const redisServer = await PrivateRedis.start();
    await redisServer.down();
    const received: string[] = [];
    const consumer = bus({ redisUrl: redisServer.url });
    consumer.subscribe({
      consumerGroup: 'search',
      types: [type],
      handler: async (e) => void received.push(e.id),
    });
    try {
      await consumer.start();
      await redisServer.up();
      const sent = createEnvelope('search', { type, subject: 'lead-1', data: {} });
      const publisher = bus({ redisUrl: redisServer.url });
      await waitFor(
        async () =>
          await publisher.publish(sent).then(
            () => true,
            () => false,
          ),
        'a publish',
      );
      await waitFor(() => received.length === 1, 'the event', 20_000);
      expect(received).toEqual([sent.id]);
    } finally {
      await buses.closeAll();
      await redisServer.destroy();
    }
  });

  it('recreates its consumer group when the stream is deleted under it', async () => {
    const type = `test.${uniqueId()}.share.created`;
    const received: number[] = [];
    const consumer = bus();
    consumer.subscribe({
      consumerGroup: 'notifications',
      types: [type],
      handler: async (e) => void received.push((e.data as { n: number }).n),
    });
    await consumer.start();
    const publisher = bus();
    await publisher.publish(createEnvelope('sharing', { type, subject: 'share-1', data: { n: 1 } }));
    await waitFor(() => received.length === 1, 'the first event');
    await redis.del(`${prefix}${type}`);
    await waitFor(
      async () => (await redis.exists(`${prefix}${type}`)) === 1,
      'the consumer to recreate the stream and its group',
    );
    await publisher.publish(createEnvelope('sharing', { type, subject: 'share-1', data: { n: 2 } }));
    await waitFor(() => received.length === 2, 'the event after the deletion');
    expect(received).toEqual([1, 2]);
  });
});

describe('nextClaimInterval', () => {
  it('doubles the wait after each scan that saw nothing pending, up to the maximum', () => {
    const waits = [5000];
    for (let scan = 0; scan < 6; scan++)
      waits.push(nextClaimInterval(waits[waits.length - 1], 0, 5000, 60_000));
    expect(waits).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
  });

  it('is back to the base interval once a scan sees a pending entry', () => {
    expect(nextClaimInterval(60_000, 1, 5000, 60_000)).toBe(5000);
  });

  it('never waits less than the base interval, whatever the maximum', () => {
    expect(nextClaimInterval(5000, 0, 5000, 1000)).toBe(5000);
  });
});
