// Bootstrap steps shared by `npm start` and `npm test`: dependencies, Redis, Chromium (and, through
// aptInstall, the Debian tools the tests need: poppler-utils, Java and Maven for the Kafka broker).
// Plain Node (no dependencies) because it runs before the dependencies are installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DATA_DIR = path.join(ROOT, '.data');

export function say(message) {
  process.stdout.write(`\x1b[1m▸ ${message}\x1b[0m\n`);
}

const quietEnv = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

/**
 * How dependencies are installed: `npm ci`, exactly the lock file (which holds every platform's optional
 * builds), with install scripts under package.json's `allowScripts` (docs/decisions/0016-npm-ci-from-the-lock-file-install-scripts-under-a-policy.md).
 */
export const INSTALL_DEPENDENCIES = ['ci', '--no-audit', '--no-fund'];

/** Installs dependencies when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh) return;
  say('Installing dependencies (npm ci, as locked)…');
  const result = spawnSync('npm', INSTALL_DEPENDENCIES, {
    cwd: ROOT,
    stdio: 'inherit',
    env: quietEnv,
  });
  if (result.status !== 0) throw new Error('npm ci failed');
}

export function redisTarget(url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) };
}

/** True when something at host:port answers Redis's PING with PONG. */
export function redisAnswers({ host, port }, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Installs a Debian package when running as root on Debian; returns whether the command now exists. */
export function aptInstall(pkg, command) {
  if (commandExists(command)) return true;
  if (!isRoot() || !commandExists('apt-get')) return false;
  say(`Installing ${pkg} from Debian's packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env });
  return commandExists(command);
}

/**
 * Uses the Redis that answers; else starts the machine's redis-server with AOF under .data/redis;
 * else installs it (root on Debian); else stops with what to install. Returns a stop function for
 * a Redis it started (none for one it found running).
 */
export async function ensureRedis() {
  const target = redisTarget();
  if (await redisAnswers(target)) return { started: false, stop: async () => {} };
  if (!['127.0.0.1', 'localhost', '::1'].includes(target.host)) {
    throw new Error(`Redis at ${target.host}:${target.port} (REDIS_URL) does not answer.`);
  }
  if (!aptInstall('redis-server', 'redis-server')) {
    throw new Error(
      'Redis is not running and redis-server is not installed. Install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.',
    );
  }
  const dir = path.join(DATA_DIR, 'redis');
  mkdirSync(dir, { recursive: true });
  say(`Starting redis-server on ${target.port} (AOF, data in .data/redis)…`);
  const child = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(target.port),
      '--appendonly',
      'yes',
      '--dir',
      dir,
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 50 && !(await redisAnswers(target)); i++) await new Promise((r) => setTimeout(r, 100));
  if (!(await redisAnswers(target))) throw new Error('redis-server started but does not answer');
  return {
    started: true,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium for the browser tests and PDF rendering comes from Debian, never from a download. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  return aptInstall('chromium', 'chromium') && existsSync(CHROMIUM);
}
