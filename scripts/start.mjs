// `npm start`: installs what is missing, builds what is stale, makes sure Redis answers, starts the
// embedded MongoDB (unless MONGO_URL is set) and the whole system, then prints the URL to open.
// Ctrl-C stops everything it started; data stays in .data/ for the next start.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { DATA_DIR, ROOT, ensureDependencies, ensureRedis, say } from './lib/bootstrap.mjs';

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
    stack = await startStack({ dataDir: DATA_DIR, logs: 'console' });
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

main().catch((err) => {
  process.stderr.write(`\n✖ ${err.message}\n`);
  process.exit(1);
});
