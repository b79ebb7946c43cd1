// Starts the whole system on one machine: embedded MongoDB (unless MONGO_URL is set), every
// service, worker and frontend server, with prefixed logs; waits for health. Used by `npm start`,
// the browser tests and the benchmarks, so all three run the same system.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { ROOT } from './bootstrap.mjs';
import { ensureNodeBuild, nodeArgsFor } from './node-build.mjs';
import { describePortHolder, portIsFree, stackPort } from './ports.mjs';
import { Supervisor } from './supervisor.mjs';

/** Written into the data directory on every change of a process's state; read by `npm start -- status`. */
export const STATUS_FILE = 'stack-status.json';

/**
 * The platform's process registry (packages/contracts/src/platform/processes.json): every process with
 * its kind, default port, entry point and health path. `npm start` runs all but the database (started
 * first, below) from it, in its order (the gateway last).
 */
export const REGISTRY = JSON.parse(
  readFileSync(path.join(ROOT, 'packages/contracts/src/platform/processes.json'), 'utf8'),
).processes;
export const PROCESSES = REGISTRY.filter((proc) => proc.kind !== 'database');

/**
 * The all-in-one host (services/all-in-one): every process of the registry but the database in one
 * Node process, each built as when alone (docs/decisions/0112-the-all-in-one-host-one-process-the-same-services.md). The default
 * of `npm start`; `split` runs one process per service instead, as the images do.
 */
export const ALL_IN_ONE = { name: 'all-in-one', entry: 'services/all-in-one/src/main.ts' };
export const STACK_MODES = ['all-in-one', 'split'];

/**
 * V8 lets a process's young generation grow to 16 MB per semi-space, and a busy process keeps what it
 * grew to at rest. On one machine (docs/decisions/0081-memory-on-one-machine.md):
 * - the processes off the search path (`smallYoungGeneration` in the registry) get 2 MB: each holds
 *   about 30 MB less, for more frequent scavenges in processes that see a fraction of its traffic;
 * - the rest (the all-in-one host, search, the gateway, the embedded MongoDB, the static servers)
 *   get 8 MB: the host holds about 80 MB less after a burst of searches, and its CPU per search did
 *   not rise.
 */
const OFF_SEARCH_PATH_ARGS = ['--max-semi-space-size=2'];
const SEARCH_PATH_ARGS = ['--max-semi-space-size=8'];

const COLOURS = [36, 35, 33, 32, 34, 31, 96, 95, 93, 92, 94, 91];
const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Secrets made once per data directory, so sessions and signed links survive restarts. */
function loadSecrets(dataDir) {
  const file = path.join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const fresh = {
    INTERNAL_SECRET: () => randomBytes(24).toString('hex'),
    COOKIE_SECRET: () => randomBytes(32).toString('hex'),
    SHARE_LINK_SECRET: () => randomBytes(32).toString('hex'),
    // What every process's /metrics asks for (the operations console sends it); never the internal secret.
    METRICS_TOKEN: () => randomBytes(24).toString('hex'),
  };
  // A data directory from before a secret existed gets only the missing one; the others are kept.
  const missing = Object.keys(fresh).filter((name) => !stored[name]);
  if (missing.length === 0) return stored;
  const secrets = { ...stored, ...Object.fromEntries(missing.map((name) => [name, fresh[name]()])) };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

function formatLine(name, colour, line) {
  let text = line;
  let shownName = name;
  try {
    const entry = JSON.parse(line);
    if (entry && typeof entry === 'object' && 'msg' in entry) {
      // The all-in-one host's lines say which of its services wrote them.
      if (name === ALL_IN_ONE.name && typeof entry.service === 'string') shownName = entry.service;
      const extras = [];
      if (entry.reqId) extras.push(`req=${entry.reqId}`);
      // With tracing on, the trace the line was written in (pino's mixin adds trace_id).
      if (entry.trace_id) extras.push(`trace=${entry.trace_id}`);
      if (entry.req?.method) extras.push(`${entry.req.method} ${entry.req.url}`);
      if (entry.res?.statusCode)
        extras.push(`→ ${entry.res.statusCode} ${Math.round(entry.responseTime ?? 0)}ms`);
      if (entry.err?.message) extras.push(`err=${entry.err.message}`);
      text = `${LEVELS[entry.level] ?? entry.level} ${entry.msg}${extras.length ? ` (${extras.join(' ')})` : ''}`;
    }
  } catch {
    // not a JSON log line: print as is
  }
  return `\x1b[${colour}m[${shownName}]\x1b[0m ${text}\n`;
}

async function waitFor(url, timeoutMs, isStopped) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (isStopped()) throw new Error('a process of the system kept crashing during start-up');
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} not healthy after ${timeoutMs} ms: ${last}`);
}

/**
 * @param {object} opts
 * @param {string} opts.dataDir      where MongoDB data, secrets and logs live
 * @param {number} [opts.portOffset] where a test stack's ports start (stackPort in ports.mjs; 0: the default ports)
 * @param {'console'|'file'} [opts.logs]
 * @param {Record<string,string>} [opts.env] extra environment for every process
 * @param {string[]} [opts.nodeArgs] extra node flags for every process (e.g. --cpu-prof, which NODE_OPTIONS refuses)
 * @param {boolean} [opts.compiled] run the services, workers and MongoDB from their compiled JavaScript,
 *   as the images do (built first when the sources are newer); false runs the TypeScript through tsx.
 *   Default: true, unless LSP_RUN_TSX=1.
 * @param {'all-in-one'|'split'} [opts.mode] every service in one process (the default), or one
 *   process per service. Default: LSP_STACK_MODE, else all-in-one.
 */
export async function startStack({
  dataDir,
  portOffset = 0,
  logs = 'console',
  env = {},
  nodeArgs = [],
  compiled = process.env.LSP_RUN_TSX !== '1',
  mode = process.env.LSP_STACK_MODE || 'all-in-one',
}) {
  if (!STACK_MODES.includes(mode))
    throw new Error(`unknown stack mode ${mode} (${STACK_MODES.join(' or ')})`);
  mkdirSync(dataDir, { recursive: true });
  if (compiled) await ensureNodeBuild();
  const argsOf = (entry) => nodeArgsFor(entry, compiled);
  const port = (p) => stackPort(p, portOffset);
  const portOf = (name) => port(REGISTRY.find((proc) => proc.name === name).port);
  const mongoPort = portOf('mongo');
  const gatewayPort = portOf('gateway');
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${gatewayPort}`;
  const logFile = logs === 'file' ? createWriteStream(path.join(dataDir, 'stack.log'), { flags: 'a' }) : null;
  // eslint-disable-next-line no-control-regex -- strips terminal colours from the log file
  const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;
  const write = (text) =>
    logFile ? logFile.write(text.replace(ANSI_COLOUR, '')) : process.stdout.write(text);

  const statusFile = path.join(dataDir, STATUS_FILE);
  const supervisor = new Supervisor({ say: (name, text) => write(formatLine(name, 31, text)) });
  // A process that cannot bind its port keeps crashing: when it is given up, say who holds that port.
  supervisor.on('given-up', (name) => {
    const registered = REGISTRY.find((proc) => proc.name === name);
    const holder = registered?.port ? describePortHolder(port(registered.port)) : null;
    if (holder) write(formatLine(name, 31, holder));
  });
  supervisor.on('change', (processes) => {
    const status = { pid: process.pid, url: publicUrl, updatedAt: new Date().toISOString(), processes };
    writeFileSync(statusFile, JSON.stringify(status, null, 2));
  });
  const launch = (name, args, childEnv, colour) =>
    supervisor.start(name, () => {
      const child = spawn(process.execPath, [...nodeArgs, ...args], {
        cwd: ROOT,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      for (const stream of [child.stdout, child.stderr]) {
        readline
          .createInterface({ input: stream })
          .on('line', (line) => write(formatLine(name, colour, line)));
      }
      return child;
    });

  const secrets = loadSecrets(dataDir);
  const mongoUrl =
    process.env.MONGO_URL ??
    env.MONGO_URL ??
    `mongodb://127.0.0.1:${mongoPort}/?replicaSet=rs0&directConnection=true`;
  const base = {
    ...process.env,
    ...secrets,
    MONGO_URL: mongoUrl,
    REDIS_URL: env.REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    PUBLIC_URL: publicUrl,
    // Each process's address, in the variable the registry names for it.
    ...Object.fromEntries(
      PROCESSES.filter((proc) => proc.urlVariable).map((proc) => [
        proc.urlVariable,
        `http://127.0.0.1:${port(proc.port)}`,
      ]),
    ),
    MAIL_CATCHER_SMTP_PORT: String(port(1025)),
    // Without a real SMTP server, emails are kept by notifications' catcher and listed at /dev/mail.
    MAIL_CATCHER_ENABLED: process.env.MAIL_CATCHER_ENABLED ?? (process.env.SMTP_URL ? 'false' : 'true'),
    PDF_DIR: path.join(dataDir, 'pdf'),
    ...env,
  };
  // Stop the edge first so nothing new comes in, the database last so everyone can flush.
  const stop = async () => {
    await supervisor.stopAll();
    logFile?.end();
  };

  try {
    await requirePortsFree(
      REGISTRY.filter((proc) =>
        proc.kind === 'database'
          ? !process.env.MONGO_URL && !env.MONGO_URL
          : proc.port && existsSync(path.join(ROOT, proc.entry)),
      )
        .map((proc) => ({ name: proc.name, port: port(proc.port) }))
        .concat(
          base.MAIL_CATCHER_ENABLED === 'true' ? [{ name: 'mail catcher (SMTP)', port: port(1025) }] : [],
        ),
    );
    if (!process.env.MONGO_URL && !env.MONGO_URL) {
      launch(
        'mongo',
        [
          ...SEARCH_PATH_ARGS,
          ...argsOf('packages/embedded-mongo/bin/embedded-mongo.ts'),
          '--port',
          String(mongoPort),
          '--dbpath',
          path.join(dataDir, 'mongo'),
          '--replset',
          'rs0',
        ],
        base,
        90,
      );
      await waitForTcp(mongoPort, 30000, () => supervisor.anyGivenUp());
    }
    if (mode === 'all-in-one') {
      launch(
        ALL_IN_ONE.name,
        [...SEARCH_PATH_ARGS, ...argsOf(ALL_IN_ONE.entry)],
        { ...base, PORT_OFFSET: String(portOffset), OTEL_SERVICE_NAME: ALL_IN_ONE.name },
        36,
      );
    }
    PROCESSES.forEach((proc, i) => {
      if (mode === 'all-in-one' || !existsSync(path.join(ROOT, proc.entry))) return;
      const childEnv = {
        ...base,
        SERVICE_NAME: proc.name,
        // Its spans are named after it (when OTEL_EXPORTER_OTLP_ENDPOINT turns tracing on).
        OTEL_SERVICE_NAME: proc.name,
        ...(proc.port ? { PORT: String(port(proc.port)) } : {}),
        // A compiled static server lives in frontends/dist/<app>/; the webpack build stays beside the source.
        ...(proc.entry.startsWith('frontends/')
          ? { STATIC_DIST: path.join(ROOT, path.dirname(proc.entry), 'dist') }
          : {}),
      };
      const args = [
        ...(proc.smallYoungGeneration ? OFF_SEARCH_PATH_ARGS : SEARCH_PATH_ARGS),
        ...argsOf(proc.entry),
      ];
      launch(proc.name, args, childEnv, COLOURS[i % COLOURS.length]);
    });
    // The gateway's readiness is its own; the API services behind it are awaited one by one.
    await Promise.all(
      PROCESSES.filter((proc) => proc.kind === 'service' && existsSync(path.join(ROOT, proc.entry)))
        .map((proc) =>
          proc.name === 'gateway'
            ? `http://127.0.0.1:${gatewayPort}/health`
            : `http://127.0.0.1:${port(proc.port)}/alive`,
        )
        .map((url) => waitFor(url, 120000, () => supervisor.anyGivenUp())),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: publicUrl, gatewayPort, mongoUrl, env: base, stop, supervisor, mode };
}

/** Refuses to start when a port of the stack is taken, naming the port, its process and who holds it. */
async function requirePortsFree(ports) {
  const taken = [];
  for (const { name, port } of ports) {
    if (!(await portIsFree(port)))
      taken.push(`${name}: ${describePortHolder(port) ?? `port ${port} is in use`}`);
  }
  if (taken.length) throw new Error(`the stack cannot bind its ports: ${taken.join('; ')}`);
}

async function waitForTcp(port, timeoutMs, isStopped) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isStopped()) throw new Error('the database kept crashing during start-up');
    const ok = await new Promise((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
}
