/**
 * The system with one domain at its previous release: that domain's processes run from a git worktree
 * of the commit its release names (packages/contracts/released/<domain>.json), every other process
 * from this tree, on one MongoDB, one Redis database and one event bus, as a production whose teams
 * deploy on their own days runs. API processes only (no frontend servers): the journeys call the API.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type TestRedis, freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import { SAFETY_NET_POLL_MS, SYSTEM_OPS_EMAIL, type Stack } from './event-chain';

const ROOT = path.resolve(__dirname, '../..');

interface RegisteredProcess {
  name: string;
  kind: 'service' | 'worker' | 'static' | 'database';
  port: number;
  entry: string;
  urlVariable?: string;
  partOf?: string;
}

const REGISTRY = (
  JSON.parse(readFileSync(path.join(ROOT, 'packages/contracts/src/platform/processes.json'), 'utf8')) as {
    processes: RegisteredProcess[];
  }
).processes;

/** The commit a domain's last release was taken from. */
export function releaseCommitOf(domain: string): string {
  const file = path.join(ROOT, 'packages/contracts/released', `${domain}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { commit: string }).commit;
}

/**
 * A worktree of the commit, sharing this tree's installed dependencies (node_modules, at the root and
 * in each workspace): the previous release's code on today's packages from npm.
 */
export function worktreeAt(commit: string): { root: string; remove(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lsp-previous-'));
  rmSync(root, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'add', '--detach', root, commit], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  for (const group of ['packages', 'services', 'frontends']) {
    if (!existsSync(path.join(root, group))) continue;
    for (const name of readdirSync(path.join(root, group))) {
      const installed = path.join(ROOT, group, name, 'node_modules');
      const target = path.join(root, group, name, 'node_modules');
      if (existsSync(installed) && !existsSync(target)) symlinkSync(installed, target);
    }
  }
  return {
    root,
    remove() {
      execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' });
    },
  };
}

async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  ms: number,
  crashed: () => string | null,
) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    const dead = crashed();
    if (dead) throw new Error(`${dead} exited while ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const answers = (url: string) => async () => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
};

const listens = (port: number) => () =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

export interface MixedStack extends Stack {
  /** Where each process ran from: this tree, or the worktree of the previous release. */
  rootOf: Record<string, string>;
  /** The domain each worker process belongs to (its registry entry's partOf). */
  partOf: Record<string, string | undefined>;
  logFile: string;
}

/**
 * Starts every API process and worker of the registry through tsx; those of `previous.domain` (the
 * service and the workers that are part of it) from `previous.root`. `busEnv` chooses the event bus
 * (Redis Streams when empty).
 */
export async function startMixedSystem(
  previous: { domain: string; root: string },
  busEnv: Record<string, string> = {},
): Promise<MixedStack> {
  const redis: TestRedis = await leaseRedisDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lsp-mixed-'));
  const logFile = path.join(dataDir, 'stack.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  const portOffset = await freeStackPortOffset(14000, 24000);
  const port = (registered: RegisteredProcess) => registered.port + portOffset;
  const byName = (name: string) => REGISTRY.find((p) => p.name === name)!;
  const mongoPort = port(byName('mongo'));
  const gatewayPort = port(byName('gateway'));
  const url = `http://localhost:${gatewayPort}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    INTERNAL_SECRET: 'mixed-internal-secret-0123456789abcdef',
    COOKIE_SECRET: 'mixed-cookie-secret-0123456789abcdef0123456789',
    SHARE_LINK_SECRET: 'mixed-share-link-secret-0123456789abcdef012345',
    MONGO_URL: `mongodb://127.0.0.1:${mongoPort}/?replicaSet=rs0&directConnection=true`,
    REDIS_URL: redis.url,
    PUBLIC_URL: url,
    MAIL_CATCHER_ENABLED: 'true',
    MAIL_CATCHER_SMTP_PORT: String(1025 + portOffset),
    PDF_DIR: path.join(dataDir, 'pdf'),
    OPS_EMAILS: SYSTEM_OPS_EMAIL,
    OUTBOX_POLL_MS: String(SAFETY_NET_POLL_MS),
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '100000',
    ...busEnv,
    ...Object.fromEntries(
      REGISTRY.filter((p) => p.urlVariable && p.kind !== 'database').map((p) => [
        p.urlVariable!,
        `http://127.0.0.1:${port(p)}`,
      ]),
    ),
  };
  const rootOf: Record<string, string> = {};
  const partOf: Record<string, string | undefined> = {};
  const children = new Map<string, ChildProcess>();
  const exited = new Map<string, number | null>();
  const ofPrevious = (p: RegisteredProcess) => p.name === previous.domain || p.partOf === previous.domain;
  const start = (registered: RegisteredProcess, args: string[]) => {
    const root = ofPrevious(registered) ? previous.root : ROOT;
    rootOf[registered.name] = root;
    partOf[registered.name] = registered.partOf;
    const child = spawn(process.execPath, ['--import', 'tsx', registered.entry, ...args], {
      cwd: root,
      env: { ...env, SERVICE_NAME: registered.name, PORT: String(port(registered)) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream!.on('data', (chunk: Buffer) => log.write(`[${registered.name}] ${chunk.toString()}`));
    }
    child.on('exit', (code) => exited.set(registered.name, code));
    children.set(registered.name, child);
  };
  const crashed = () => {
    const [name] = [...exited.keys()];
    return name ? `${name} (see ${logFile})` : null;
  };
  const stopAll = async () => {
    const order = [...children.entries()].reverse(); // the database last
    for (const [name, child] of order) {
      if (exited.has(name)) continue;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    }
    log.end();
  };
  try {
    const mongo = byName('mongo');
    start(mongo, ['--port', String(mongoPort), '--dbpath', path.join(dataDir, 'mongo'), '--replset', 'rs0']);
    await waitUntil(listens(mongoPort), 'MongoDB started', 60_000, crashed);
    const apis = REGISTRY.filter((p) => p.kind === 'service' || p.kind === 'worker');
    // The previous release joins a running system, as a team's deploy does: the others first (they
    // create the topics and streams), then the released domain's processes.
    for (const group of [apis.filter((p) => !ofPrevious(p)), apis.filter(ofPrevious)]) {
      for (const registered of group) start(registered, []);
      for (const registered of group) {
        const health = registered.name === 'gateway' ? '/health' : '/alive';
        await waitUntil(
          answers(`http://127.0.0.1:${port(registered)}${health}`),
          `${registered.name} answered`,
          180_000,
          crashed,
        );
      }
    }
  } catch (err) {
    await stopAll();
    await redis.release();
    throw err;
  }
  return {
    url,
    portOffset,
    rootOf,
    partOf,
    logFile,
    async stop() {
      await stopAll();
      await redis.release();
      if (process.env.KEEP_SYSTEM_DATA) console.info(`mixed system test: logs kept in ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
