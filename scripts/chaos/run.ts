/**
 * `npm run chaos`: the whole platform serving a mixed workload at a fixed rate while its processes are
 * killed with SIGKILL one at a time and Redis is restarted; then a reconciliation, from the outside
 * (what was acknowledged) and from the databases (what is stored, published, handled and sent).
 *
 *   npm run chaos                 long form (CHAOS_SECONDS, default 600 s of workload)
 *   npm run chaos -- --short      the CI form: about two minutes in all
 *   npm run chaos -- --kafka      events on a real Apache Kafka broker of its own (EVENT_BUS=kafka), which
 *                                 is killed (SIGKILL) and restarted on its data like the other victims
 *   npm run chaos -- --all-in-one the all-in-one host (every service in one process, npm start's default)
 *                                 instead of one process per service: the host is the victim each service
 *                                 would be, beside MongoDB and Redis
 *
 * Everything is its own: ports (a free offset), a Redis server (AOF, fsync always, so a restart keeps
 * what it acknowledged), a data folder. It ends with `chaos: N acknowledged, N lost, N duplicated` and
 * exits non-zero when anything acknowledged was lost or duplicated.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PLATFORM_PROCESSES, defaultPortOf } from '@lsp/contracts';
import { CookieClient, freePort, freeStackPortOffset } from '@lsp/testing';
import { MongoClient } from 'mongodb';
import { type Tally, reconcile } from './reconcile';
import { CHAOS_OPS_EMAIL, type Workload, createWorkload } from './workload';

const SHORT = process.argv.includes('--short');
const KAFKA = process.argv.includes('--kafka');
const MODE: 'all-in-one' | 'split' = process.argv.includes('--all-in-one') ? 'all-in-one' : 'split';
/** The process whose kill stops the re-pricing run and the email worker: the host, or each alone. */
const REPRICING_PROCESS = MODE === 'all-in-one' ? 'all-in-one' : 'repricing-worker';
const EMAIL_PROCESS = MODE === 'all-in-one' ? 'all-in-one' : 'email-worker';
const WORKLOAD_SECONDS = Number(process.env.CHAOS_SECONDS ?? (SHORT ? 75 : 600));
const RATE = Number(process.env.CHAOS_RATE ?? 8);
/**
 * Time between kills; each victim gets its turn before any is killed twice. The all-in-one host is one
 * of three victims, not one of twelve: three times the pause keeps it from being killed more often than
 * `npm start`'s supervisor restarts a process (five crashes a minute), as each process alone is.
 */
const KILL_EVERY_MS =
  Number(process.env.CHAOS_KILL_EVERY_MS ?? (SHORT ? 6500 : 20000)) * (MODE === 'all-in-one' ? 3 : 1);
const ROOT = path.resolve(__dirname, '../..');
const STACK_MODULE = path.join(ROOT, 'scripts/lib/stack.mjs');

/**
 * Every process of the platform's registry that holds state or serves traffic (services, workers and
 * the database; the static frontend servers hold nothing), and the Redis server.
 */
const VICTIMS = [
  ...(MODE === 'all-in-one'
    ? ['all-in-one', 'mongo']
    : PLATFORM_PROCESSES.filter((proc) => proc.kind !== 'static').map((proc) => proc.name)),
  'redis',
  ...(KAFKA ? ['kafka'] : []),
];
type Victim = string;

export interface KillRecord {
  victim: Victim;
  at: number;
  recoveredAt: number | null;
}

interface Supervised {
  processes: Map<string, { child: ChildProcess | null }>;
}

/** A Redis server of the run's own, so restarting it touches nobody else. */
function startRedis(port: number, dir: string): ChildProcess {
  return spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
    ],
    { stdio: 'ignore' },
  );
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

async function tcpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lsp-chaos-'));
  const offset = await freeStackPortOffset(21000, 24000);
  const redisPort = await freePort();
  let redis = startRedis(redisPort, dataDir);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const { startStack } = (await import(STACK_MODULE)) as {
    startStack(opts: {
      dataDir: string;
      portOffset: number;
      logs: 'file';
      env: Record<string, string>;
      mode: 'all-in-one' | 'split';
    }): Promise<{ url: string; mongoUrl: string; stop(): Promise<void>; supervisor: Supervised }>;
  };
  for (let i = 0; i < 50 && !(await tcpAnswers(redisPort)); i++) await sleep(100);
  const kafka = KAFKA ? await startKafka(dataDir) : undefined;
  const kafkaPort = kafka ? Number(kafka.brokers[0].split(':')[1]) : 0;
  process.stdout.write(
    `chaos: stack on port offset ${offset}, Redis on ${redisPort}, ` +
      `${kafka ? `events on Apache Kafka ${kafka.version} at ${kafka.brokers[0]}` : 'events on Redis Streams'}, data in ${dataDir}\n`,
  );
  const stack = await startStack({
    dataDir,
    portOffset: offset,
    logs: 'file',
    // One process per service (killed one at a time), or the all-in-one host with --all-in-one.
    mode: MODE,
    env: {
      REDIS_URL: redisUrl,
      MAIL_CATCHER_ENABLED: 'true',
      LOG_LEVEL: 'warn',
      // The workload comes from one address at a steady rate: the per-address limits are not under test.
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_AUTH_MAX: '1000000',
      LOGIN_LOCK_AFTER_PER_IP: '1000000',
      // The ops user who activates cheaper lender panels during the run (workload.ts).
      OPS_EMAILS: CHAOS_OPS_EMAIL,
      ...(kafka ? { EVENT_BUS: 'kafka', KAFKA_BROKERS: kafka.brokers.join(',') } : {}),
    },
  });
  const kills: KillRecord[] = [];
  let closeWatcher = async () => {};
  let tally: Tally | null = null;
  let workload: Workload | null = null;
  try {
    /** Waits (up to a minute) for a killed victim to answer again, and records when it did. */
    const awaitRecovery = async (record: KillRecord) => {
      const { victim } = record;
      await sleep(300);
      const deadline = Date.now() + 60000;
      while (Date.now() < deadline) {
        const registered = PLATFORM_PROCESSES.find((proc) => proc.name === victim);
        const up =
          victim === 'all-in-one'
            ? // the host listens with the gateway last, once every service it holds is up
              await answers(`http://127.0.0.1:${defaultPortOf('gateway') + offset}/health`)
            : victim === 'redis'
              ? await tcpAnswers(redisPort)
              : victim === 'kafka'
                ? await tcpAnswers(kafkaPort)
                : !registered?.health
                  ? // the database: identity's readiness includes its MongoDB connection
                    await answers(`http://127.0.0.1:${defaultPortOf('identity') + offset}/health`)
                  : await answers(`http://127.0.0.1:${registered.port + offset}${registered.health}`);
        if (up) {
          record.recoveredAt = Date.now();
          break;
        }
        await sleep(100);
      }
    };
    /**
     * Besides the killer's turns: the re-pricing worker is killed as soon as an activation's run has
     * begun (watched in the search database), so it dies in the middle of the run it must resume.
     */
    const watcher = await MongoClient.connect(stack.mongoUrl);
    closeWatcher = () => watcher.close();
    const killWhileRepricing = async (runId: string) => {
      const runs = watcher
        .db('search')
        .collection<{ _id: string; status: string; done: number }>('repricing_runs');
      const deadline = Date.now() + 15000;
      while (Date.now() < deadline) {
        const run = await runs.findOne({ _id: runId }).catch(() => null);
        if (run?.status === 'done') {
          process.stdout.write(`chaos: re-pricing run ${runId} finished before its kill\n`);
          return;
        }
        if (run) {
          const record: KillRecord = { victim: REPRICING_PROCESS, at: Date.now(), recoveredAt: null };
          kills.push(record);
          stack.supervisor.processes.get(REPRICING_PROCESS)?.child?.kill('SIGKILL');
          process.stdout.write(
            `chaos: killed ${REPRICING_PROCESS} at +${((record.at - started) / 1000).toFixed(1)} s, ` +
              `its run ${runId} at ${run.done} searches\n`,
          );
          await awaitRecovery(record);
          return;
        }
        await sleep(10);
      }
    };

    workload = createWorkload(stack.url, () => new CookieClient(stack.url));
    const stopWorkload = workload.run(RATE);
    // Twice during the kills, an ops user activates a cheaper lender panel (rates a tenth, then a fifth
    // below the shipped ones): saved searches are re-priced and owners alerted while processes die.
    const w = workload;
    const workloadStarted = Date.now();
    const activations = (async () => {
      for (const [at, cut] of [
        [0.3, 0.1],
        [0.65, 0.2],
      ] as const) {
        await sleep(Math.max(0, workloadStarted + at * WORKLOAD_SECONDS * 1000 - Date.now()));
        const acknowledged = w.acknowledged.activations.length;
        await w.activateCheaperPanel(cut);
        const activation = w.acknowledged.activations[acknowledged];
        if (activation) await killWhileRepricing(`${activation.version}@${activation.activatedAt}`);
      }
    })();

    const killer = (async () => {
      const order = [...VICTIMS].sort(() => Math.random() - 0.5);
      // On Kafka the broker is always among the first kills, however short the run.
      if (KAFKA) order.splice(1, 0, ...order.splice(order.indexOf('kafka'), 1));
      // The email worker dies soon after the first panel activation (about the fourth kill), while
      // its alerts are being sent.
      order.splice(3, 0, ...order.splice(order.indexOf(EMAIL_PROCESS), 1));
      const end = Date.now() + WORKLOAD_SECONDS * 1000;
      for (let i = 0; Date.now() + KILL_EVERY_MS < end; i++) {
        await sleep(KILL_EVERY_MS * (0.5 + Math.random()));
        const victim = order[i % order.length];
        const record: KillRecord = { victim, at: Date.now(), recoveredAt: null };
        kills.push(record);
        if (victim === 'redis') {
          redis.kill('SIGKILL');
          await new Promise((resolve) => redis.once('exit', resolve));
          await sleep(500);
          redis = startRedis(redisPort, dataDir);
        } else if (victim === 'kafka') {
          await kafka!.kill();
          await sleep(500);
          await kafka!.restart();
        } else {
          stack.supervisor.processes.get(victim)?.child?.kill('SIGKILL');
        }
        process.stdout.write(`chaos: killed ${victim} at +${((record.at - started) / 1000).toFixed(1)} s\n`);
        await awaitRecovery(record);
      }
    })();

    await sleep(WORKLOAD_SECONDS * 1000);
    await stopWorkload();
    await activations;
    await killer;
    process.stdout.write('chaos: workload stopped; waiting for outboxes and queues to drain\n');
    const mongo = await MongoClient.connect(stack.mongoUrl);
    try {
      tally = await reconcile({ mongo, redisUrl, workload, kills, mailUrl: stack.url });
    } finally {
      await mongo.close();
    }
  } finally {
    await closeWatcher();
    await stack.stop();
    await kafka?.stop();
    redis.kill('SIGTERM');
    if (tally && tally.lost === 0 && tally.duplicated === 0)
      rmSync(dataDir, { recursive: true, force: true });
    else process.stdout.write(`chaos: logs and data kept in ${dataDir}\n`);
  }

  const w = workload!;
  const t = tally!;
  const rows: Array<[string, string]> = [
    ['requests', String(w.requests)],
    ['acknowledged (2xx)', String(t.acknowledged)],
    ['lost', String(t.lost)],
    ['duplicated', String(t.duplicated)],
    ['emails sent twice in the SMTP window', String(t.smtpWindowDuplicates)],
    ['5xx inside kill windows', String(w.serverErrors.filter((e) => inKillWindow(e, kills)).length)],
    ['5xx outside kill windows', String(w.serverErrors.filter((e) => !inKillWindow(e, kills)).length)],
    ['network errors (connection refused/reset)', String(w.networkErrors)],
    ['left pending (outboxes, queues)', String(t.pending)],
    ['lender panels activated (acknowledged)', String(t.activations)],
    ['saved searches re-priced', String(t.repricedSearches)],
    ['re-pricing alert emails', String(t.alertEmails)],
  ];
  process.stdout.write('\n');
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(44)} ${v}\n`);
  process.stdout.write('\n  operation            answers\n');
  for (const [what, byStatus] of [...w.answers].sort(([a], [b]) => a.localeCompare(b)))
    process.stdout.write(
      `  ${what.padEnd(20)} ${[...byStatus].map(([status, n]) => `${status}×${n}`).join('  ')}\n`,
    );
  process.stdout.write('\n  kill                 recovered after\n');
  for (const k of kills)
    process.stdout.write(
      `  ${k.victim.padEnd(20)} ${k.recoveredAt ? `${((k.recoveredAt - k.at) / 1000).toFixed(1)} s` : 'not recovered'}\n`,
    );
  const recoveries = kills.flatMap((k) => (k.recoveredAt ? [k.recoveredAt - k.at] : []));
  process.stdout.write(
    `\n  recovery p50 ${(percentile(recoveries, 50) / 1000).toFixed(1)} s, max ${(Math.max(0, ...recoveries) / 1000).toFixed(1)} s\n`,
  );
  for (const problem of t.problems.slice(0, 30)) process.stdout.write(`  ✖ ${problem}\n`);
  process.stdout.write(
    `\nchaos: ${t.acknowledged} acknowledged, ${t.lost} lost, ${t.duplicated} duplicated\n`,
  );
  process.exit(t.lost === 0 && t.duplicated === 0 && t.pending === 0 ? 0 : 1);
}

interface ChaosKafka {
  brokers: string[];
  version: string;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A Kafka broker of the run's own (scripts/kafka-broker.mjs), its data kept in the run's folder. */
async function startKafka(dataDir: string): Promise<ChaosKafka> {
  const { startKafkaBroker } = (await import(path.join(ROOT, 'scripts/kafka-broker.mjs'))) as {
    startKafkaBroker(opts: { dir: string }): Promise<ChaosKafka>;
  };
  return startKafkaBroker({ dir: path.join(dataDir, 'kafka') });
}

/** A kill window runs from the kill until one second after the victim answered again. */
function inKillWindow(error: { at: number }, kills: KillRecord[]): boolean {
  return kills.some((k) => error.at >= k.at && error.at <= (k.recoveredAt ?? Infinity) + 1000);
}

main().catch((err) => {
  process.stderr.write(`\nchaos: failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
