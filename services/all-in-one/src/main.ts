// The all-in-one host's entry point (`npm start` runs it by default; `npm start -- --split` runs each
// process alone instead). Every process listens on its registry port plus PORT_OFFSET. On SIGTERM or
// SIGINT the gateway stops taking requests, then every service closes as it would alone. A crash ends
// the whole process: `npm start`'s supervisor restarts it, and the outboxes and consumer groups in
// MongoDB and Redis lose nothing, as when one service alone is restarted.
import '@lsp/service-kit/tracing';
import { defaultPortOf } from '@lsp/contracts';
import { flushTracing } from '@lsp/service-kit';
import { startAllInOne } from './host';

/** How long the services may take to close before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 20_000;

function portOffset(): number {
  const offset = Number(process.env.PORT_OFFSET ?? 0);
  if (!Number.isInteger(offset) || offset < 0) {
    process.stderr.write(`PORT_OFFSET must be a whole number, got "${process.env.PORT_OFFSET}"\n`);
    process.exit(78);
  }
  return offset;
}

async function main() {
  const offset = portOffset();
  const host = await startAllInOne({ env: process.env, portOf: (name) => defaultPortOf(name) + offset });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(
      `${JSON.stringify({ level: 30, service: 'all-in-one', msg: `${signal}: shutting down` })}\n`,
    );
    setTimeout(() => {
      process.stderr.write('all-in-one: shutdown took too long; exiting\n');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    host
      .close()
      .then(() => flushTracing())
      .then(
        () => process.exit(0),
        (err) => {
          process.stderr.write(`all-in-one: shutdown failed: ${(err as Error).stack ?? err}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`all-in-one failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
