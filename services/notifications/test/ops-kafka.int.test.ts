// The live feed on EVENT_BUS=kafka: the tap's own consumer group reads every topic; a published
// event reaches the SSE stream, and a reconnect with Last-Event-ID loses nothing. On a real Apache Kafka
// broker: KAFKA_BROKERS when set, else one this suite starts, like the bus's own contract suite.
import { type EventEnvelope, OPS_FEED_REPLAY } from '@lsp/contracts';
import { KafkaEventBus } from '@lsp/service-kit';
import {
  type Listening,
  type TestMongo,
  type TestRedis,
  leaseRedisDb,
  listen,
  startTestMongo,
  waitFor,
} from '@lsp/testing';
import type { Connection } from 'mongoose';
import {
  type TestKafka,
  kafkaTargetName,
  startTestKafka,
} from '../../../packages/service-kit/test/kafka-broker';
import type { OpsConsole } from '../src/ops';
import { asOps, buildAppWithOpsConsole, openStream, testEvent } from './ops-helpers';

jest.setTimeout(180_000);

const GROUP = { sessionTimeout: 6000, rebalanceTimeout: 6000, heartbeatInterval: 500, maxWaitTimeInMs: 100 };

describe(`the operations feed on Kafka (${kafkaTargetName()})`, () => {
  let kafka: TestKafka | undefined;
  let brokers: string[];
  let mongo: TestMongo;
  let redis: TestRedis;
  let db: Connection;
  let publisher: KafkaEventBus;
  let bus: KafkaEventBus;
  let ops: OpsConsole;
  let service: Listening;

  beforeAll(async () => {
    kafka = await startTestKafka();
    brokers = kafka.brokers;
    console.info(`Operations feed on Kafka: ${kafka.target}`);
    mongo = await startTestMongo();
    redis = await leaseRedisDb();
    db = await mongo.database('notifications');
    publisher = new KafkaEventBus({ brokers, clientId: 'ops-kafka-publisher' });
    bus = new KafkaEventBus({ brokers, clientId: 'notifications', consumerConfig: GROUP });
    const built = await buildAppWithOpsConsole({
      mongoUrl: mongo.url,
      db,
      redisUrl: redis.url,
      bus,
      env: {
        EVENT_BUS: 'kafka',
        KAFKA_BROKERS: brokers.join(','),
        OPS_TARGETS: 'nothing=http://127.0.0.1:9',
      },
      console: {
        instance: `kafka-test-${Date.now()}`,
        kafka: { consumerConfig: GROUP },
        // One dead-letter topic keeps the group join short.
        deadLetterTypes: ['dip.created'],
      },
    });
    ops = built.ops;
    await bus.start();
    await ops.start();
    service = await listen(built.app);
    // The tap has joined its group once an event published now reaches its ring.
    await waitFor(
      async () => {
        const probe = testEvent('search.completed', { subject: 'warmup' });
        await publisher.publish(probe);
        return waitFor(
          () => ops.tap.ring.last(1, { type: [], subject: 'warmup' }).length > 0,
          'the probe',
          3000,
        ).catch(() => false);
      },
      'the tap to join its group',
      90_000,
      500,
    );
  });

  afterAll(async () => {
    await service?.close();
    await ops?.close();
    await bus?.close();
    await publisher?.close();
    await redis?.release();
    await mongo?.stop();
    await kafka?.stop();
  });

  it('streams a published event and resumes after Last-Event-ID without a gap', async () => {
    const subject = `kafka-${Date.now()}`;
    const first = await openStream(service.url, `/api/ops/events/stream?subject=${subject}`, asOps());
    const before = [testEvent('search.completed', { subject }), testEvent('dip.created', { subject })];
    for (const event of before) await publisher.publish(event);
    await first.waitFor((m) => m.filter((x) => x.event === 'message').length >= 2, 'two events', 20_000);
    // Two topics: Kafka orders within a partition only, so compare by event id.
    const byId = (a: EventEnvelope, b: EventEnvelope) => a.id.localeCompare(b.id);
    expect(
      first
        .envelopes()
        .map((e) => e.envelope)
        .sort(byId),
    ).toEqual([...before].sort(byId));
    for (const { id, envelope } of first.envelopes())
      expect(id).toMatch(new RegExp(`^\\d+-p\\d+o\\d+@${envelope.type.replace('.', '\\.')}$`));
    const lastId = first.envelopes().at(-1)!.id;
    first.close();

    const missed: EventEnvelope[] = [];
    for (let i = 0; i < 6; i++) {
      const event = testEvent(i % 2 ? 'dip.created' : 'search.completed', { subject });
      missed.push(event);
      await publisher.publish(event);
    }
    await waitFor(
      () => ops.tap.ring.last(10, { type: [], subject }).length >= before.length + missed.length,
      'the tap',
      20_000,
    );
    const resumed = await openStream(service.url, `/api/ops/events/stream?subject=${subject}`, {
      ...asOps(),
      'Last-Event-ID': lastId,
    });
    try {
      await resumed.waitFor(
        (m) => m.filter((x) => x.event === 'message').length >= missed.length,
        'the missed events',
      );
      // Kafka orders within a partition only: compare as sets, and check nothing came twice.
      const got = resumed.envelopes().map((e) => e.envelope.id);
      expect(new Set(got)).toEqual(new Set(missed.map((e) => e.id)));
      expect(got).toHaveLength(missed.length);
      // A fresh viewer gets the replay (at most OPS_FEED_REPLAY) from the ring.
      const fresh = await openStream(service.url, `/api/ops/events/stream?subject=${subject}`, asOps());
      await fresh.waitFor((m) => m.filter((x) => x.event === 'message').length >= 8, 'the replay');
      expect(fresh.envelopes().length).toBeLessThanOrEqual(OPS_FEED_REPLAY);
      fresh.close();
    } finally {
      resumed.close();
    }
  });

  it('reports Kafka on the health grid', async () => {
    const res = await fetch(`${service.url}/api/ops/health`, { headers: asOps() });
    const body = await res.json();
    expect(body.eventBus).toBe('kafka');
    expect(body.processes).toEqual([expect.objectContaining({ name: 'nothing', up: false })]);
  });
});
