// `npm start`: installs what is missing, builds what is stale, makes sure Redis answers, starts the
// embedded MongoDB (unless MONGO_URL is set) and the whole system, then prints the URL to open.
// Ctrl-C stops everything it started; data stays in .data/ for the next start. A process that
// crashes is restarted (scripts/lib/supervisor.mjs); `npm start -- status` shows each process.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR, ROOT, ensureDependencies, ensureRedis, say } from './lib/bootstrap.mjs';
import { formatStatusTable } from './lib/supervisor.mjs';
import { ensureSupportedNode } from './lib/node-version.mjs';

// On a Node older than the supported one this runs the whole command again on it (.cache/node).
await ensureSupportedNode();

const STATUS_FILE = path.join(DATA_DIR, 'stack-status.json');

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm start -- status`: what the running `npm start` supervises, read from the file it keeps current. */
function printStatus() {
  const status = existsSync(STATUS_FILE) ? JSON.parse(readFileSync(STATUS_FILE, 'utf8')) : null;
  if (!status || !isAlive(status.pid)) {
    process.stdout.write('The platform is not running (start it with `npm start`).\n');
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`The platform is up at ${status.url} (npm start pid ${status.pid})\n\n`);
  process.stdout.write(`${formatStatusTable(status.processes)}\n`);
}

async function main() {
  ensureDependencies();
  say('Building the frontends (only what changed)…');
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-frontends.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('frontend build failed');
  const redis = await ensureRedis();
  const { startStack } = await import('./lib/stack.mjs');
  say(
    process.env.MONGO_URL
      ? 'Using MongoDB at MONGO_URL'
      : 'Starting the embedded MongoDB (data in .data/mongo)…',
  );
  let stack;
  try {
    // Every service in one process by default; `npm start -- --split` runs one process per service.
    const mode = process.argv.includes('--split') ? 'split' : 'all-in-one';
    say(mode === 'split' ? 'One process per service (--split)…' : 'Every service in one process…');
    stack = await startStack({ dataDir: DATA_DIR, logs: 'console', mode });
  } catch (err) {
    await redis.stop();
    throw err;
  }
  const mailNote = process.env.SMTP_URL
    ? `Emails go to SMTP_URL.`
    : `Emails (verification links) are caught locally: ${stack.url}/dev/mail`;
  process.stdout.write(
    `\n\x1b[1;32m✔ The platform is up: open ${stack.url}\x1b[0m\n  ${mailNote}\n  Press Ctrl-C to stop.\n\n`,
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    say('Stopping…');
    await stack.stop();
    await redis.stop();
    say('Stopped. Data is kept in .data/');
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

const run = process.argv[2] === 'status' ? async () => printStatus() : main;
run().catch((err) => {
  process.stderr.write(`\n✖ ${err.message}\n`);
  process.exit(1);
});
