#!/usr/bin/env node
// CLI: embedded-mongo --port 27017 --dbpath .data/mongo [--replset rs0] [--fsync interval] [--maxConns 1000]
//      [--compactBytes 67108864]
//      [--setParameter enableTestCommands=1]   (tests only: configureFailPoint)
import { startEmbeddedMongo } from '../src';
import { FsyncPolicy } from '../src/storage/journal';

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const [key, inline] = arg.slice(2).split('=', 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    out[key.toLowerCase()] = value;
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const fsync = (args.fsync ?? 'interval') as FsyncPolicy;
  if (!['always', 'interval', 'never'].includes(fsync))
    throw new Error('--fsync must be always, interval or never');
  const log = (msg: string) => console.log(`[embedded-mongo] ${msg}`);
  // Faults (disk full, damaged journal, data folder created or deleted) go to stderr, which
  // `npm start` shows beside stdout, so they stand out from routine lines.
  const warn = (msg: string) => console.error(`[embedded-mongo] ${msg}`);
  const started = Date.now();
  const server = await startEmbeddedMongo({
    port: args.port === undefined ? 27017 : Number(args.port),
    host: args.bind_ip ?? args.host ?? '127.0.0.1',
    dbPath: args.dbpath,
    replSet: args.replset,
    fsync,
    // mongod's flag name; the server's default (1,000) applies when it is omitted.
    maxConnections: args.maxconns === undefined ? undefined : Number(args.maxconns),
    // Journal size that triggers compaction into a snapshot (default 64 MiB).
    compactBytes: args.compactbytes === undefined ? undefined : Number(args.compactbytes),
    // mongod's switch for test-only commands (configureFailPoint); `npm start` never passes it.
    enableTestCommands:
      /^(1|true)$/i.test(args.enabletestcommands ?? '') ||
      /^enableTestCommands=(1|true)$/i.test(args.setparameter ?? ''),
    log,
    warn,
  });
  log(
    `listening on ${server.uri} (${args.dbpath ? `data in ${args.dbpath}` : 'in memory'}, ready in ${Date.now() - started} ms)`,
  );
  const shutdown = (signal: string) => {
    log(`${signal}: shutting down`);
    server.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(`[embedded-mongo] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
