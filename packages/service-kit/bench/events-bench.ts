/**
 * Event bus figures on this machine: `npx tsx packages/service-kit/bench/events-bench.ts`.
 * Uses the machine's Redis (REDIS_URL) under a throwaway prefix and an embedded MongoDB (or MONGO_URL);
 * Kafka on KAFKA_BROKERS, else on a real Apache Kafka broker it starts (scripts/kafka-broker.mjs), with
 * each client KAFKA_CLIENT offers. The client comparison is `npm run bench -- kafka-clients`.
 */
import { createEnvelope } from '@lsp/contracts';
import { type KafkaClient, Outbox, OutboxRelay, RedisStreamsEventBus, createEventBus } from '../src/events';
import { REDIS_URL, deleteKeysWithPrefix, openTestMongo, uniqueId, waitFor } from '../test/events-helpers';
import { startTestKafka } from '../test/kafka-broker';

const COUNT = Number(process.env.BENCH_EVENTS ?? 5000);
const prefix = `bench:events:${uniqueId()}:`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

async function busFigures() {
  const latencies: number[] = [];
  const consumer = new RedisStreamsEventBus({ redisUrl: REDIS_URL, prefix, blockMs: 1000 });
  consumer.subscribe({
    consumerGroup: 'bench',
    types: ['bench.event'],
    handler: async (envelope) => void latencies.push(Date.now() - Date.parse(envelope.time)),
  });
  await consumer.start();
  const publisher = new RedisStreamsEventBus({ redisUrl: REDIS_URL, prefix });
  const started = Date.now();
  for (let i = 0; i < COUNT; i++) {
    await publisher.publish(
      createEnvelope('bench', { type: 'bench.event', subject: `s-${i % 50}`, data: { i } }),
    );
  }
  const published = Date.now();
  await waitFor(() => latencies.length === COUNT, 'every event', 120_000);
  const consumed = Date.now();
  latencies.sort((a, b) => a - b);
  console.log(
    `redis streams: ${COUNT} events published one by one in ${published - started} ms (${rate(COUNT, published - started)}/s)`,
  );
  console.log(
    `redis streams: all consumed ${consumed - started} ms after the first publish (${rate(COUNT, consumed - started)}/s end to end)`,
  );
  console.log(
    `redis streams: publish-to-handler latency p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms`,
  );
  await consumer.close();
  await publisher.close();
}

const KAFKA_COUNT = Number(process.env.BENCH_KAFKA_EVENTS ?? 1000);

async function kafkaFigures(client: KafkaClient, brokers: string[], where: string) {
  const label = `kafka (${client}, ${where})`;
  const type = `bench.${uniqueId()}.event`;
  const latencies: number[] = [];
  const make = () =>
    createEventBus(
      client === 'platformatic'
        ? { kind: 'kafka', client, brokers, clientId: 'bench', groupTimings: { maxWaitTime: 100 } }
        : { kind: 'kafka', client, brokers, clientId: 'bench', consumerConfig: { maxWaitTimeInMs: 100 } },
    );
  const consumer = make();
  consumer.subscribe({
    consumerGroup: `bench-${uniqueId()}`,
    types: [type],
    handler: async (envelope) => void latencies.push(Date.now() - Date.parse(envelope.time)),
  });
  await consumer.start();
  const publisher = make();
  const started = Date.now();
  for (let i = 0; i < KAFKA_COUNT; i++) {
    await publisher.publish(createEnvelope('bench', { type, subject: `s-${i % 50}`, data: { i } }));
  }
  const published = Date.now();
  await waitFor(() => latencies.length === KAFKA_COUNT, 'every Kafka event', 180_000);
  const consumed = Date.now();
  latencies.sort((a, b) => a - b);
  console.log(
    `${label}: ${KAFKA_COUNT} events published one by one (acks=all) in ${published - started} ms (${rate(KAFKA_COUNT, published - started)}/s)`,
  );
  console.log(
    `${label}: all consumed ${consumed - started} ms after the first publish (${rate(KAFKA_COUNT, consumed - started)}/s end to end), group join included`,
  );
  console.log(
    `${label}: publish-to-handler latency p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms`,
  );
  await consumer.close();
  await publisher.close();
}

async function kafkaBench() {
  const kafka = await startTestKafka();
  try {
    for (const client of ['kafkajs', 'platformatic'] as const)
      await kafkaFigures(client, kafka.brokers, kafka.target);
  } finally {
    await kafka.stop();
  }
}

async function outboxFigures() {
  const mongo = await openTestMongo();
  const outbox = await Outbox.open(mongo.connection);
  const publisher = new RedisStreamsEventBus({ redisUrl: REDIS_URL, prefix });
  const n = Math.min(COUNT, 2000);
  const events = Array.from({ length: n }, (_, i) =>
    createEnvelope('bench', { type: 'bench.outboxed', subject: `s-${i % 50}`, data: { i } }),
  );
  const addStarted = Date.now();
  for (const event of events) await mongo.connection.transaction((session) => outbox.add([event], session));
  const addMs = Date.now() - addStarted;
  const relay = new OutboxRelay({ outbox, bus: publisher });
  const relayStarted = Date.now();
  relay.start();
  await waitFor(async () => (await outbox.countPending()) === 0, 'the backlog', 300_000);
  const relayMs = Date.now() - relayStarted;
  console.log(
    `outbox: ${n} single-event transactions in ${addMs} ms (${rate(n, addMs)}/s, embedded MongoDB: ${!process.env.MONGO_URL})`,
  );
  console.log(
    `outbox relay: a backlog of ${n} published and marked in ${relayMs} ms (${rate(n, relayMs)}/s)`,
  );
  await relay.stop();
  await publisher.close();
  await mongo.stop();
}

async function main() {
  try {
    await busFigures();
    await kafkaBench();
    await outboxFigures();
  } finally {
    await deleteKeysWithPrefix(REDIS_URL, prefix);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
