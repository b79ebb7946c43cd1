/**
 * The Kafka client libraries behind the Kafka adapter, side by side on a real Apache Kafka broker:
 * `npm run bench -- kafka-clients` (KAFKA_BROKERS, else a broker it starts with scripts/kafka-broker.mjs).
 * For each client: the EventBus contract suite (pass/fail), throughput with acks=all at the platform's
 * event size (~1.5 KB JSON envelopes), one-by-one publishing (the outbox relay's way), p50/p99
 * publish-to-handler latency at a steady 200 events/s, CPU per event (this process, publishing and
 * consuming, and the broker's JVM), and recovery when the broker is killed and restarted (a broker of
 * its own only). @confluentinc/kafka-javascript is not measured: its install downloads a prebuilt
 * librdkafka binary from outside the package registry (see docs/kafka-clients.md).
 * BENCH_KAFKA_EVENTS (default 3000) sets the throughput run's size, BENCH_ROUNDS (default 3) the rounds
 * (medians are printed), BENCH_KAFKA_CLIENTS=a,b the clients, BENCH_LOG=1 shows the adapters' errors.
 */
import { createEnvelope } from '@lsp/contracts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type EventBus, type KafkaClient, createEventBus } from '../src/events';
import { uniqueId, waitFor } from '../test/events-helpers';
import {
  KAFKA_BROKER_SCRIPT,
  type KafkaBrokerModule,
  type TestKafka,
  kafkaBrokersFromEnv,
} from '../test/kafka-broker';

const ROOT = path.resolve(__dirname, '../../..');
const N = Number(process.env.BENCH_KAFKA_EVENTS ?? 3000);
const IN_FLIGHT = 32;
const ONE_BY_ONE = 500;
const PACED = { rate: 200, count: 1000 };
const CLIENTS = (process.env.BENCH_KAFKA_CLIENTS ?? 'kafkajs,platformatic')
  .split(',')
  .map((c) => c.trim()) as KafkaClient[];
const GROUP = { sessionTimeout: 6000, rebalanceTimeout: 6000, heartbeatInterval: 500 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const ms1 = (x: number) => Math.round(x * 10) / 10;

/** BENCH_LOG=1 prints the adapters' warnings and errors (what a broker restart looks like to them). */
const logger = process.env.BENCH_LOG
  ? {
      debug() {},
      info() {},
      warn: (o: object, m?: string) => console.log(`    [warn] ${m} ${errorOf(o)}`),
      error: (o: object, m?: string) => console.log(`    [error] ${m} ${errorOf(o)}`),
    }
  : undefined;
const errorOf = (o: object) => {
  const err = (o as { err?: unknown }).err;
  return err instanceof Error ? `${err.constructor.name}: ${err.message}` : '';
};

function makeBus(client: KafkaClient, brokers: string[]): EventBus {
  const clientId = `bench-${client}-${uniqueId()}`;
  return client === 'platformatic'
    ? createEventBus({
        kind: 'kafka',
        client,
        brokers,
        clientId,
        logger,
        groupTimings: { ...GROUP, maxWaitTime: 100 },
      })
    : createEventBus({
        kind: 'kafka',
        client,
        brokers,
        clientId,
        logger,
        consumerConfig: { ...GROUP, maxWaitTimeInMs: 100 },
      });
}

/** A DIP-sized event: an envelope of about 1.5 KB of JSON, like dip.created with its offer. */
function benchEvent(type: string, i: number) {
  return createEnvelope('bench', {
    type,
    subject: `dip-${i % 64}`,
    correlationId: `corr-${i}`,
    data: {
      seq: i,
      sentAt: performance.now(),
      dipId: `dip-${uniqueId()}-${i}`,
      userId: `user-${i % 500}`,
      searchId: `search-${uniqueId()}`,
      loanType: 'bridging',
      validUntil: new Date(Date.now() + 48 * 3600_000).toISOString(),
      offer: {
        lender: 'Example Property Finance Ltd',
        product: 'Residential bridging, first charge, 12 months',
        grossLoan: 412_500,
        netLoan: 398_137.5,
        ltv: 0.65,
        monthlyRate: 0.0079,
        arrangementFee: 8250,
        exitFee: 0,
        valuationFee: 1250,
        legalFee: 1500,
        term: 12,
        interest: 'retained',
        notes: 'Subject to valuation and underwriting. Rates are indicative and may change before offer.',
      },
      property: {
        postcode: 'SW1A 1AA',
        value: 635_000,
        purchasePrice: 610_000,
        type: 'residential',
        tenure: 'freehold',
        description: 'Three-bedroom terraced house, refurbishment of kitchen and bathrooms planned',
      },
      applicant: {
        name: 'Bench Applicant',
        email: `applicant-${i}@example.co.uk`,
        company: 'Bench Developments Ltd',
        experience: 'two completed refurbishments in the last three years',
      },
    },
  });
}

/** The broker JVM's CPU time so far (ms), from /proc; 0 when it cannot be read. */
function brokerCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Consumer {
  bus: EventBus;
  received: Map<number, number>;
  duplicates: number;
  latencies: number[];
}

/** A subscribed, started bus that has joined its group (a probe came through). */
async function joinedConsumer(client: KafkaClient, brokers: string[], type: string): Promise<Consumer> {
  const consumer: Consumer = {
    bus: makeBus(client, brokers),
    received: new Map(),
    duplicates: 0,
    latencies: [],
  };
  consumer.bus.subscribe({
    consumerGroup: `bench-${uniqueId()}`,
    types: [type],
    handler: async (envelope) => {
      const data = envelope.data as { seq: number; sentAt: number };
      if (consumer.received.has(data.seq)) consumer.duplicates += 1;
      else {
        consumer.received.set(data.seq, performance.now());
        consumer.latencies.push(performance.now() - data.sentAt);
      }
    },
  });
  await consumer.bus.start();
  return consumer;
}

async function warmUp(publisher: EventBus, consumer: Consumer, type: string) {
  await publisher.publish(benchEvent(type, -1));
  await waitFor(() => consumer.received.has(-1), 'the warm-up event', 60_000);
  consumer.received.clear();
  consumer.latencies.length = 0;
}

interface Figures {
  client: KafkaClient;
  contract?: string;
  throughput?: {
    publishPerS: number;
    endToEndPerS: number;
    clientCpuMsPerEvent: number;
    brokerCpuMsPerEvent: number;
  };
  oneByOne?: { publishPerS: number; p50: number; p99: number };
  paced?: { p50: number; p99: number; max: number };
  recovery?: string;
  recovered?: { publishS?: number; consumeS?: number; lost: number; duplicates: number };
  error?: string;
}

async function throughput(client: KafkaClient, kafka: TestKafka & { pid?: number }, f: Figures) {
  const type = `bench.${uniqueId()}.throughput`;
  const consumer = await joinedConsumer(client, kafka.brokers, type);
  const publisher = makeBus(client, kafka.brokers);
  try {
    await warmUp(publisher, consumer, type);
    const events = Array.from({ length: N }, (_, i) => benchEvent(type, i));
    const cpu0 = cpuMs();
    const broker0 = brokerCpuMs(kafka.pid);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < events.length) {
          const event = events[next++];
          (event.data as { sentAt: number }).sentAt = performance.now();
          await publisher.publish(event);
        }
      }),
    );
    const published = performance.now() - t0;
    await waitFor(() => consumer.received.size === N, 'every event of the throughput run', 300_000);
    const consumed = Math.max(...consumer.received.values()) - t0;
    f.throughput = {
      publishPerS: rate(N, published),
      endToEndPerS: rate(N, consumed),
      clientCpuMsPerEvent: Math.round(((cpuMs() - cpu0) / N) * 1000) / 1000,
      brokerCpuMsPerEvent: Math.round(((brokerCpuMs(kafka.pid) - broker0) / N) * 1000) / 1000,
    };
    console.log(
      `  throughput (${N} events, ${IN_FLIGHT} publishes in flight, acks=all): published ${f.throughput.publishPerS}/s, ` +
        `consumed ${f.throughput.endToEndPerS}/s end to end; CPU per event ${f.throughput.clientCpuMsPerEvent} ms ` +
        `in this process, ${f.throughput.brokerCpuMsPerEvent} ms in the broker; ${consumer.duplicates} duplicates`,
    );

    // One by one, as the outbox relay publishes: each publish waits for the broker's acknowledgement.
    consumer.received.clear();
    consumer.latencies.length = 0;
    const t1 = performance.now();
    for (let i = 0; i < ONE_BY_ONE; i++) await publisher.publish(benchEvent(type, N + i));
    const oneByOne = performance.now() - t1;
    await waitFor(() => consumer.received.size === ONE_BY_ONE, 'every one-by-one event', 120_000);
    const sorted = [...consumer.latencies].sort((a, b) => a - b);
    f.oneByOne = {
      publishPerS: rate(ONE_BY_ONE, oneByOne),
      p50: ms1(percentile(sorted, 0.5)),
      p99: ms1(percentile(sorted, 0.99)),
    };
    console.log(
      `  one by one (${ONE_BY_ONE} events, each acknowledged before the next): ${f.oneByOne.publishPerS}/s, ` +
        `publish-to-handler p50 ${f.oneByOne.p50} ms, p99 ${f.oneByOne.p99} ms`,
    );

    // Latency at a steady rate well below saturation.
    consumer.received.clear();
    consumer.latencies.length = 0;
    const gap = 1000 / PACED.rate;
    const t2 = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < PACED.count; i++) {
      const due = t2 + i * gap;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      pending.push(publisher.publish(benchEvent(type, 2 * N + i)));
    }
    await Promise.all(pending);
    await waitFor(() => consumer.received.size === PACED.count, 'every paced event', 120_000);
    const paced = [...consumer.latencies].sort((a, b) => a - b);
    f.paced = {
      p50: ms1(percentile(paced, 0.5)),
      p99: ms1(percentile(paced, 0.99)),
      max: ms1(paced[paced.length - 1]),
    };
    console.log(
      `  steady ${PACED.rate} events/s (${PACED.count} events): publish-to-handler p50 ${f.paced.p50} ms, ` +
        `p99 ${f.paced.p99} ms, max ${f.paced.max} ms`,
    );
  } finally {
    await consumer.bus.close();
    await publisher.close();
  }
}

/**
 * Publishes 20 events/s (retrying each until acknowledged, as the outbox relay does), kills the broker
 * (SIGKILL) and starts it again 3 s later; reports when publishing and consuming resumed, and whether
 * every acknowledged event was consumed.
 */
async function recovery(client: KafkaClient, kafka: TestKafka, f: Figures) {
  if (!kafka.restart) {
    f.recovery = 'not measured (KAFKA_BROKERS: not a broker of our own to restart)';
    return;
  }
  const type = `bench.${uniqueId()}.recovery`;
  const consumer = await joinedConsumer(client, kafka.brokers, type);
  const publisher = makeBus(client, kafka.brokers);
  const acked = new Set<number>();
  let stop = false;
  let brokerBackAt = 0;
  let firstAckAfter = 0;
  let firstConsumedAfter = 0;
  await warmUp(publisher, consumer, type);
  const publishing = (async () => {
    for (let i = 0; !stop; i++) {
      for (;;) {
        try {
          await publisher.publish(benchEvent(type, i));
          acked.add(i);
          if (brokerBackAt && !firstAckAfter) firstAckAfter = performance.now();
          break;
        } catch {
          if (stop) return;
          await sleep(100);
        }
      }
      await sleep(50);
    }
  })();
  try {
    await sleep(2000);
    const beforeKill = new Set(consumer.received.keys());
    const lastAckBeforeKill = Math.max(...acked);
    const t0 = performance.now();
    const restarting = kafka.restart();
    // kill + 3 s down + start
    await sleep(3000);
    await restarting;
    brokerBackAt = performance.now();
    const downMs = brokerBackAt - t0;
    const consumedAfter = () =>
      [...consumer.received.entries()].some(([seq, at]) => !beforeKill.has(seq) && at > brokerBackAt);
    await waitFor(consumedAfter, 'an event consumed after the restart', 90_000).catch(() => undefined);
    if (consumedAfter()) firstConsumedAfter = performance.now();
    await sleep(3000);
    stop = true;
    await Promise.race([publishing, sleep(30_000)]);
    const allConsumed = () => [...acked].every((seq) => consumer.received.has(seq));
    await waitFor(allConsumed, 'every acknowledged event', 60_000).catch(() => undefined);
    const lost = [...acked].filter((seq) => !consumer.received.has(seq));
    const missing = lost.length;
    if (missing)
      console.log(
        `  not consumed: ${lost.slice(0, 10).join(', ')} (published before the kill: ${lastAckBeforeKill})`,
      );
    const since = (t: number) => (t ? ms1((t - brokerBackAt) / 1000) : undefined);
    f.recovered = {
      publishS: since(firstAckAfter),
      consumeS: since(firstConsumedAfter),
      lost: missing,
      duplicates: consumer.duplicates,
    };
    const s = (t: number) => (t ? `${ms1((t - brokerBackAt) / 1000)} s` : 'never (90 s)');
    f.recovery =
      `broker down ${ms1(downMs / 1000)} s; publishing resumed ${s(firstAckAfter)} and consuming ` +
      `${s(firstConsumedAfter)} after it was back; ${acked.size - missing}/${acked.size} acknowledged events ` +
      `consumed, ${consumer.duplicates} duplicates`;
  } finally {
    stop = true;
    await Promise.race([publishing, sleep(5000)]);
    await Promise.race([Promise.all([consumer.bus.close(), publisher.close()]), sleep(30_000)]);
  }
  console.log(`  recovery: ${f.recovery}`);
}

/** The contract suite on this broker, once for all clients; pass/fail counts per client. */
function contract(brokers: string[]): Map<string, string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lsp-kafka-contract-'));
  const out = path.join(dir, 'jest.json');
  spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'jest'),
    ['packages/service-kit/test/events-kafka.int.test.ts', '--json', '--outputFile', out, '--silent'],
    { cwd: ROOT, stdio: 'ignore', env: { ...process.env, KAFKA_BROKERS: brokers.join(',') } },
  );
  const result = new Map<string, string>();
  if (existsSync(out)) {
    const json = JSON.parse(readFileSync(out, 'utf8')) as {
      testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; status: string }> }>;
    };
    for (const client of CLIENTS) {
      const mine = json.testResults
        .flatMap((r) => r.assertionResults)
        .filter((a) => a.ancestorTitles.some((t) => t.includes(`(${client} client)`)));
      const passed = mine.filter((a) => a.status === 'passed').length;
      result.set(client, `${passed}/${mine.length} passed`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return result;
}

/** A dependency's installed version (its package.json may not be exported). */
function packageVersion(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (!existsSync(path.join(dir, 'package.json')) || !dir.endsWith(name)) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

async function main() {
  const fromEnv = kafkaBrokersFromEnv();
  let kafka: TestKafka & { pid?: number };
  let stopBroker = async () => undefined as void;
  if (fromEnv.length)
    kafka = { brokers: fromEnv, target: `KAFKA_BROKERS=${fromEnv.join(',')}`, stop: stopBroker };
  else {
    const { startKafkaBroker } = (await import(KAFKA_BROKER_SCRIPT)) as KafkaBrokerModule;
    // The JVM fully tuned (both compilers), as a production broker runs.
    const broker = await startKafkaBroker({ quickStart: false });
    kafka = {
      brokers: broker.brokers,
      target: `Apache Kafka ${broker.version} (KRaft, one JVM, -Xmx256m) at ${broker.brokers.join(',')}`,
      get pid() {
        return broker.pid;
      },
      restart: async () => {
        await broker.kill();
        await broker.restart();
      },
      stop: () => broker.stop(),
    };
    stopBroker = () => broker.stop();
  }
  const size = Buffer.byteLength(JSON.stringify(benchEvent('bench.x.throughput', 0)));
  console.log(
    `kafka clients on ${kafka.target}; Node ${process.versions.node}; event envelope ${size} bytes`,
  );
  const versions = {
    kafkajs: packageVersion('kafkajs'),
    platformatic: packageVersion('@platformatic/kafka'),
  };
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const figures: Figures[] = [];
  try {
    const contracts = process.env.BENCH_KAFKA_ONLY ? new Map<string, string>() : contract(kafka.brokers);
    // Rounds, the order of the clients turned each time: on a shared machine the load changes by the minute.
    for (let round = 0; round < rounds; round++) {
      const order = CLIENTS.map((_, i) => CLIENTS[(i + round) % CLIENTS.length]);
      for (const client of order) {
        const f: Figures = { client, contract: contracts.get(client) ?? 'did not run' };
        figures.push(f);
        console.log(`round ${round + 1}/${rounds}: ${client} ${versions[client]}`);
        try {
          if (process.env.BENCH_KAFKA_ONLY !== 'recovery') await throughput(client, kafka, f);
          await recovery(client, kafka, f);
        } catch (err) {
          f.error = err instanceof Error ? err.message : String(err);
          console.log(`  failed: ${f.error}`);
        }
      }
    }
  } finally {
    await stopBroker();
  }
  // The median of the rounds, and their range.
  const summary = (client: KafkaClient, pick: (f: Figures) => number | undefined) => {
    const values = figures
      .filter((f) => f.client === client)
      .map(pick)
      .filter((v): v is number => typeof v === 'number')
      .sort((a, b) => a - b);
    if (!values.length) return '–';
    const median = values[Math.floor((values.length - 1) / 2)];
    return values.length > 1 ? `${median} (${values[0]}–${values[values.length - 1]})` : `${median}`;
  };
  console.log(`\nMedian of ${rounds} round(s) (range), ${kafka.target}:\n`);
  console.log('| | ' + CLIENTS.map((c) => `${c} ${versions[c]}`).join(' | ') + ' |');
  console.log('|---|' + CLIENTS.map(() => '---').join('|') + '|');
  const row = (name: string, cell: (client: KafkaClient) => string | undefined) =>
    console.log(`| ${name} | ${CLIENTS.map((c) => cell(c) ?? '–').join(' | ')} |`);
  row('contract suite', (c) => contractOf(c));
  const numericRows: Array<[name: string, pick: (f: Figures) => number | undefined]> = [
    [`publish, ${IN_FLIGHT} in flight (events/s)`, (f) => f.throughput?.publishPerS],
    ['consumed end to end (events/s)', (f) => f.throughput?.endToEndPerS],
    ['CPU per event, client process (ms)', (f) => f.throughput?.clientCpuMsPerEvent],
    ['CPU per event, broker (ms)', (f) => f.throughput?.brokerCpuMsPerEvent],
    ['publish one by one (events/s)', (f) => f.oneByOne?.publishPerS],
    [`latency at ${PACED.rate}/s, p50 (ms)`, (f) => f.paced?.p50],
    [`latency at ${PACED.rate}/s, p99 (ms)`, (f) => f.paced?.p99],
    ['after a broker restart: publishing resumed (s)', (f) => f.recovered?.publishS],
    ['after a broker restart: consuming resumed (s)', (f) => f.recovered?.consumeS],
    ['after a broker restart: acknowledged events lost', (f) => f.recovered?.lost],
    ['after a broker restart: duplicates', (f) => f.recovered?.duplicates],
  ];
  for (const [name, pick] of numericRows) row(name, (c) => summary(c, pick));
  row(
    'errors',
    (c) =>
      figures
        .filter((f) => f.client === c && f.error)
        .map((f) => f.error)
        .join('; ') || 'none',
  );
  process.exit(figures.some((f) => f.error) ? 1 : 0);

  function contractOf(client: KafkaClient) {
    return figures.find((f) => f.client === client)?.contract;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
