/**
 * `npm run bench -- events`: how fast events reach the services that act on them, through the stack
 * `npm start` runs. For every event type: from its commit (the outbox entry's time) to its being
 * published, and to each consumer having handled it (the consumer's processed-event marker), p50 and
 * p99, read from the services' own databases. Twice: at rest (one person doing everything that writes
 * an event, round after round), and under load (the same while bridging searches arrive at
 * EVENTS_LOAD_RATE, default 50 req/s, about half the search knee on this machine). On Redis Streams,
 * then on Kafka (a real broker, scripts/kafka-broker.mjs) unless EVENTS_BUS=redis.
 *
 *   EVENTS_ROUNDS (default 15)     rounds of every event per phase
 *   EVENTS_LOAD_RATE (default 50)  bridging searches per second during the loaded phase
 *   EVENTS_BUS=redis|kafka         one bus only
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import autocannon from 'autocannon';
import { MongoClient } from 'mongodb';
import { SYSTEM_OPS_EMAIL } from '../../tests/system/event-chain';
import { produceEveryEvent } from '../../tests/system/producers';
import { SEARCH_PAYLOADS, sameOrigin, signUpVerified } from '../lib/journeys';

const ROOT = path.resolve(__dirname, '../..');
const ROUNDS = Number(process.env.EVENTS_ROUNDS ?? 15);
const LOAD_RATE = Number(process.env.EVENTS_LOAD_RATE ?? 50);
const BUSES = (process.env.EVENTS_BUS ? [process.env.EVENTS_BUS] : ['redis', 'kafka']) as Array<
  'redis' | 'kafka'
>;
const DATABASES = ['identity', 'search', 'dip', 'sharing', 'notifications'];

interface Stack {
  url: string;
  mongoUrl: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const fmt = (n: number) => (Number.isNaN(n) ? '—' : n < 10 ? n.toFixed(1) : String(Math.round(n)));

/** Commit-to-published and commit-to-handled per event type (and consumer) for events committed in [from, to]. */
async function measure(mongo: MongoClient, from: Date, to: Date) {
  const published = new Map<string, number[]>();
  const handled = new Map<string, number[]>();
  const committedAt = new Map<string, { type: string; at: number }>();
  for (const name of DATABASES) {
    const entries = await mongo
      .db(name)
      .collection<{ eventId: string; type: string; createdAt: Date; publishedAt: Date | null }>('outbox')
      .find({ createdAt: { $gte: from, $lte: to } })
      .toArray();
    for (const e of entries) {
      committedAt.set(e.eventId, { type: e.type, at: e.createdAt.getTime() });
      const list = published.get(e.type) ?? [];
      list.push(e.publishedAt ? e.publishedAt.getTime() - e.createdAt.getTime() : Infinity);
      published.set(e.type, list);
    }
  }
  for (const name of DATABASES) {
    const markers = await mongo
      .db(name)
      .collection<{ eventId: string; consumer: string; processedAt: Date }>('processed_events')
      .find({ processedAt: { $gte: from } })
      .toArray();
    for (const m of markers) {
      const event = committedAt.get(m.eventId);
      if (!event) continue;
      const key = `${event.type}\t${m.consumer}`;
      const list = handled.get(key) ?? [];
      list.push(m.processedAt.getTime() - event.at);
      handled.set(key, list);
    }
  }
  return { published, handled };
}

function report(title: string, figures: Awaited<ReturnType<typeof measure>>) {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(
    `${'event type'.padEnd(34)} ${'n'.padStart(5)}  ${'published p50/p99 ms'.padStart(20)}  handled by: p50/p99 ms\n`,
  );
  for (const [type, list] of [...figures.published].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...list].sort((a, b) => a - b);
    const consumers = [...figures.handled]
      .filter(([key]) => key.startsWith(`${type}\t`))
      .map(([key, times]) => {
        const s = [...times].sort((a, b) => a - b);
        return `${key.split('\t')[1]} ${fmt(quantile(s, 0.5))}/${fmt(quantile(s, 0.99))} (n ${s.length})`;
      });
    process.stdout.write(
      `${type.padEnd(34)} ${String(sorted.length).padStart(5)}  ${`${fmt(quantile(sorted, 0.5))} / ${fmt(quantile(sorted, 0.99))}`.padStart(20)}  ${consumers.join('; ') || '(no consumer)'}\n`,
    );
  }
}

async function startOn(bus: 'redis' | 'kafka', redisUrl: string, brokers: string | null): Promise<Stack> {
  const { startStack } = (await import(path.join(ROOT, 'scripts/lib/stack.mjs'))) as {
    startStack(opts: object): Promise<Stack>;
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lsp-events-'));
  const stack = await startStack({
    dataDir,
    portOffset: await freeStackPortOffset(16000, 24000),
    logs: 'file',
    env: {
      REDIS_URL: redisUrl,
      MAIL_CATCHER_ENABLED: 'true',
      // The producers activate a lender panel as this operator.
      OPS_EMAILS: SYSTEM_OPS_EMAIL,
      RATE_LIMIT_MAX: '100000000',
      RATE_LIMIT_AUTH_MAX: '100000000',
      LOGIN_LOCK_AFTER_PER_IP: '100000000',
      // One person does everything, round after round: the per-person and per-address limits would refuse it.
      INVITATIONS_PER_HOUR: '10000',
      PASSWORD_RESET_MAX_PER_HOUR_PER_IP: '100000',
      EVENT_BUS: bus,
      ...(brokers ? { KAFKA_BROKERS: brokers } : {}),
    },
  });
  return {
    ...stack,
    async stop() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function runOn(bus: 'redis' | 'kafka') {
  const redis = await leaseRedisDb();
  let broker: { brokers: string[]; stop(): Promise<void> } | null = null;
  if (bus === 'kafka') {
    const { startKafkaBroker } = (await import(path.join(ROOT, 'scripts/kafka-broker.mjs'))) as {
      startKafkaBroker(opts?: object): Promise<{ brokers: string[]; stop(): Promise<void> }>;
    };
    broker = await startKafkaBroker({ log: () => undefined });
  }
  const stack = await startOn(bus, redis.url, broker ? broker.brokers.join(',') : null);
  const mongo = await MongoClient.connect(stack.mongoUrl);
  try {
    const owner = await signUpVerified(stack.url, 'Events Bench');
    // The system test's producers take a stack with a port offset; only the URL matters here.
    const target = {
      url: stack.url,
      portOffset: 0,
      metricsToken: stack.env.METRICS_TOKEN!,
      stop: stack.stop,
    };
    await produceEveryEvent(target, owner); // warm every path once
    await new Promise((resolve) => setTimeout(resolve, 2000));

    let from = new Date();
    for (let round = 0; round < ROUNDS; round++) await produceEveryEvent(target, owner);
    await new Promise((resolve) => setTimeout(resolve, 3000)); // the last events' consumers
    report(
      `events on ${bus}, at rest (${ROUNDS} rounds of every event, one after another)`,
      await measure(mongo, from, new Date()),
    );

    from = new Date();
    let finished: (result: autocannon.Result) => void = () => undefined;
    const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
    const load = autocannon(
      {
        url: `${stack.url}/api/bridging`,
        method: 'POST',
        headers: { ...sameOrigin(stack.url), 'content-type': 'application/json' },
        body: JSON.stringify(SEARCH_PAYLOADS.bridging),
        overallRate: LOAD_RATE,
        connections: 8,
        duration: 600,
      },
      (err, result) => {
        if (err) throw err;
        finished(result);
      },
    );
    for (let round = 0; round < ROUNDS; round++) await produceEveryEvent(target, owner);
    const to = new Date();
    load.stop();
    const searches = await done;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    report(
      `events on ${bus}, under load (${searches.requests.total} bridging searches at ${LOAD_RATE} req/s meanwhile, ${searches.non2xx + searches.errors} failed)`,
      await measure(mongo, from, to),
    );
  } finally {
    await mongo.close();
    await stack.stop();
    await broker?.stop();
    await redis.release();
  }
}

async function main() {
  for (const bus of BUSES) await runOn(bus);
}

main().catch((err) => {
  process.stderr.write(`events: failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
