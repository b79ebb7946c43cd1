// `npm test`: bootstraps like `npm start` (dependencies, Redis, Chromium from Debian), then runs the
// contracts check, type-check, lint, unit, integration, browser tests and the short chaos runs (on Redis
// Streams, then on Kafka), and ends with one summary line.
// `npm test -- unit integration` runs only the named stages.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  CHROMIUM,
  ROOT,
  aptInstall,
  ensureChromium,
  ensureDependencies,
  ensureRedis,
  say,
} from './lib/bootstrap.mjs';
import { ensureSupportedNode } from './lib/node-version.mjs';

// On a Node older than the supported one this runs the whole command again on it (.cache/node).
await ensureSupportedNode();

const RESULTS = path.join(ROOT, 'test-results');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

/** How long jest may take to exit once it has written its results: longer means a test left something open. */
const EXIT_GRACE_MS = 60_000;

/**
 * Runs jest and waits for it to exit by itself: no --forceExit, so a test that leaves a connection,
 * timer or child process open is found, not hidden. If jest has written its results but is still
 * running a minute later, it is stopped and the stage fails with that reason, rather than hanging CI.
 */
function runJestToExit(args, resultsFile) {
  return new Promise((resolve) => {
    const child = spawn(bin('jest'), args, { cwd: ROOT, stdio: 'inherit', env: process.env });
    let resultsSeenAt = null;
    const watch = setInterval(() => {
      if (resultsSeenAt === null && existsSync(resultsFile)) resultsSeenAt = Date.now();
      if (resultsSeenAt !== null && Date.now() - resultsSeenAt > EXIT_GRACE_MS) {
        say(
          `jest finished its tests but did not exit within ${EXIT_GRACE_MS / 1000} s: a test left a ` +
            'connection, timer or process open (find it with --detectOpenHandles); stopping it',
        );
        child.kill('SIGKILL');
      }
    }, 1000);
    child.on('exit', (code) => {
      clearInterval(watch);
      resolve(code === 0);
    });
  });
}

function jestCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0 };
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: r.numPendingTests,
  };
}

function playwrightCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0 };
  const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
  return { passed: s.expected ?? 0, failed: (s.unexpected ?? 0) + (s.flaky ?? 0), skipped: s.skipped ?? 0 };
}

const STAGES = {
  // Today's contracts against each domain's last release (packages/contracts/released/): a change that
  // readers of the release could not read fails here, naming the event or route and the field.
  contracts: () => ({ ok: run(process.execPath, ['--import', 'tsx', 'scripts/contracts.ts', 'check']) }),
  typecheck: () => ({ ok: run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']) }),
  lint: () => ({
    ok:
      run(bin('eslint'), ['.', '--max-warnings', '0']) &&
      run(bin('prettier'), ['--check', '.', '--log-level', 'warn']),
  }),
  unit: () => {
    const out = path.join(RESULTS, 'jest-unit.json');
    const ok = run(bin('jest'), ['--selectProjects', 'unit', '--json', '--outputFile', out]);
    return { ok, counts: jestCounts(out) };
  },
  integration: async () => {
    const out = path.join(RESULTS, 'jest-integration.json');
    say(
      process.env.MONGO_URL
        ? 'Integration tests use MongoDB at MONGO_URL'
        : "Integration tests use the embedded MongoDB and the machine's Redis (no Docker engine here)",
    );
    const ok = await runJestToExit(
      ['--selectProjects', 'integration', '--runInBand', '--json', '--outputFile', out],
      out,
    );
    return { ok, counts: jestCounts(out) };
  },
  browser: () => {
    if (!run(process.execPath, ['scripts/build-frontends.mjs']))
      return { ok: false, counts: { passed: 0, failed: 1, skipped: 0 } };
    const out = path.join(RESULTS, 'playwright.json');
    const ok = run(bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
    return { ok, counts: playwrightCounts(out) };
  },
  // The short chaos run: the whole platform under SIGKILLs and a Redis restart, reconciled (one test).
  chaos: () => {
    const ok =
      run(process.execPath, ['scripts/build-frontends.mjs']) &&
      run(process.execPath, ['--import', 'tsx', 'scripts/chaos/run.ts', '--short']);
    return { ok, counts: { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 } };
  },
  // The same on Kafka: events on a real Apache Kafka broker of the run's own (scripts/kafka-broker.mjs),
  // which is killed (SIGKILL) and restarted among the other victims; nothing lost or duplicated (one test).
  'chaos-kafka': () => {
    const ok =
      run(process.execPath, ['scripts/build-frontends.mjs']) &&
      run(process.execPath, ['--import', 'tsx', 'scripts/chaos/run.ts', '--short', '--kafka']);
    return { ok, counts: { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 } };
  },
  // The events bench on a real Apache Kafka broker, short: it prints how fast each event reaches each of
  // its consumers (how many arrived, p50 and p99); it fails if the stack does not run or a step that
  // writes an event is refused, never on a time (no timed assertion).
  'events-kafka': () => {
    const ok =
      run(process.execPath, ['scripts/build-frontends.mjs']) &&
      run(process.execPath, ['--import', 'tsx', 'scripts/bench/events.ts'], {
        EVENTS_BUS: 'kafka',
        EVENTS_ROUNDS: '3',
        EVENTS_LOAD_RATE: '20',
      });
    return { ok, counts: { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 } };
  },
};

async function main() {
  const wanted = process.argv.slice(2).filter((a) => a in STAGES);
  const stages = wanted.length ? wanted : Object.keys(STAGES);
  ensureDependencies();
  const redis = await ensureRedis();
  // Chromium renders DIP PDFs (integration) and runs the browser tests; poppler reads the PDFs back.
  if ((stages.includes('browser') || stages.includes('integration')) && !ensureChromium()) {
    throw new Error(
      `Chromium is needed at ${CHROMIUM} for the PDF and browser tests: apt-get install -y chromium`,
    );
  }
  if (stages.includes('integration') && !aptInstall('poppler-utils', 'pdftotext')) {
    throw new Error('pdftotext is needed to read the DIP PDFs back: apt-get install -y poppler-utils');
  }
  // The Kafka suites start a real Apache Kafka broker (scripts/kafka-broker.mjs): Java, and Maven once to
  // fetch it. The chaos run on Kafka always starts its own, since it kills it, even when KAFKA_BROKERS is set.
  if (
    (stages.includes('integration') && !process.env.KAFKA_BROKERS) ||
    stages.includes('chaos-kafka') ||
    stages.includes('events-kafka')
  ) {
    if (!aptInstall('default-jre-headless', 'java') || !aptInstall('maven', 'mvn'))
      throw new Error(
        'Java and Maven are needed for the Kafka broker of the Kafka suites and the chaos run on Kafka: apt-get install -y default-jre-headless maven',
      );
    if (!run(process.execPath, ['scripts/kafka.mjs', '--fetch']))
      throw new Error("Apache Kafka's jars could not be fetched with Maven (npm run kafka -- --fetch)");
  }
  mkdirSync(RESULTS, { recursive: true });
  // Only this run's summaries are cleared; screenshots and traces of other runs may still be in use.
  for (const file of ['jest-unit.json', 'jest-integration.json', 'playwright.json'])
    rmSync(path.join(RESULTS, file), { force: true });
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const failedStages = [];
  try {
    for (const stage of stages) {
      say(`Stage: ${stage}`);
      const { ok, counts } = await STAGES[stage]();
      if (counts) for (const k of Object.keys(totals)) totals[k] += counts[k];
      if (!ok) {
        failedStages.push(stage);
        if (!counts || counts.failed === 0) totals.failed += 1;
      }
    }
  } finally {
    await redis.stop();
  }
  if (failedStages.length) say(`Failed stages: ${failedStages.join(', ')}`);
  process.stdout.write(
    `\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`,
  );
  process.exit(failedStages.length ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`\n✖ ${err.message}\n`);
  process.exit(1);
});
