// The Node `npm start` and `npm test` run on: the major of package.json's `engines.node` (the supported
// LTS) or newer. On an older Node (18 up) they fetch the supported one from the npm registry (the `node`
// package, whose preinstall script installs the platform's build) into .cache/node once, say so in one
// line, and run themselves again on it with its bin first on PATH, so every process they start runs on it.
// Plain Node, no dependencies: it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the supported Node is installed when the machine's is older (git-ignored). */
export const NODE_CACHE = path.join(ROOT, '.cache', 'node');
export const NODE_CACHE_BIN = path.join(NODE_CACHE, 'node_modules', 'node', 'bin');

/** Set in the environment of the run on the cached Node, so it never fetches or re-runs again. */
const ON_CACHED_NODE = 'LSP_ON_CACHED_NODE';

/** The oldest Node major package.json's engines accept (`>=24` gives 24). */
export function supportedNodeMajor() {
  const range = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
  const match = /^>=\s*(\d+)/.exec(range);
  if (!match) throw new Error(`package.json engines.node is not of the form ">=N": ${range}`);
  return Number(match[1]);
}

/** The major of a version string ("20.20.2" or "v24.1.0"), or 0 when it is not one. */
export function majorOf(version) {
  const match = /^v?(\d+)\./.exec(version ?? '');
  return match ? Number(match[1]) : 0;
}

/**
 * What to do on this Node: 'run' (it is supported), 'use-cache' (the supported Node is in .cache/node),
 * or 'fetch' (install it there first).
 */
export function nodePlan({ version, supportedMajor, cachedVersion }) {
  if (majorOf(version) >= supportedMajor) return 'run';
  return majorOf(cachedVersion) === supportedMajor ? 'use-cache' : 'fetch';
}

/**
 * .cache/node's package.json: the `node` package of the supported major, whose preinstall script (the
 * one install script allowed there) installs the platform's Node build and links it as bin/node.
 */
export function cachedNodePackageJson(supportedMajor) {
  return {
    name: 'lsp-supported-node',
    private: true,
    description: `Node ${supportedMajor} for npm start and npm test on a machine with an older Node`,
    dependencies: { node: String(supportedMajor) },
    allowScripts: { node: true },
  };
}

/** PATH with this directory first (and not again later). */
export function pathWithFirst(dir, currentPath = '', delimiter = path.delimiter) {
  return [dir, ...currentPath.split(delimiter).filter((entry) => entry && entry !== dir)].join(delimiter);
}

function say(message) {
  process.stdout.write(`\x1b[1m▸ ${message}\x1b[0m\n`);
}

function stop(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function versionOf(nodeBinary) {
  if (!existsSync(nodeBinary)) return null;
  const result = spawnSync(nodeBinary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

function fetchSupportedNode(supportedMajor) {
  mkdirSync(NODE_CACHE, { recursive: true });
  writeFileSync(
    path.join(NODE_CACHE, 'package.json'),
    `${JSON.stringify(cachedNodePackageJson(supportedMajor), null, 2)}\n`,
  );
  const result = spawnSync('npm', ['install', '--prefix', NODE_CACHE, '--no-audit', '--no-fund'], {
    cwd: NODE_CACHE,
    stdio: 'inherit',
  });
  const installed = versionOf(path.join(NODE_CACHE_BIN, 'node'));
  if (result.status !== 0 || majorOf(installed) !== supportedMajor) {
    throw new Error(
      `Node ${supportedMajor} could not be installed into .cache/node from the npm registry; ` +
        `install Node ${supportedMajor} LTS (https://nodejs.org, \`nvm install\` reads .nvmrc) and run again.`,
    );
  }
}

/** Runs this same command again on the cached Node, passing on signals, and exits with its exit. */
function rerunOnCachedNode() {
  const child = spawn(path.join(NODE_CACHE_BIN, 'node'), [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: pathWithFirst(NODE_CACHE_BIN, process.env.PATH), [ON_CACHED_NODE]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
  return new Promise(() => {});
}

/**
 * Returns at once on a supported Node. On an older one, fetches the supported Node into .cache/node when it
 * is not there yet, then runs this command again on it: the returned promise never settles, and this
 * process ends with that run's exit code.
 */
export async function ensureSupportedNode() {
  const supportedMajor = supportedNodeMajor();
  const plan = nodePlan({
    version: process.versions.node,
    supportedMajor,
    cachedVersion: process.env[ON_CACHED_NODE] ? null : versionOf(path.join(NODE_CACHE_BIN, 'node')),
  });
  if (plan === 'run') return;
  if (process.env[ON_CACHED_NODE]) {
    stop(
      `✖ Node ${process.versions.node} is still not Node ${supportedMajor}: .cache/node is broken; remove it.`,
    );
  }
  if (plan === 'fetch') {
    say(
      `This machine has Node ${process.versions.node}; installing Node ${supportedMajor} from the npm registry into .cache/node (once)…`,
    );
    try {
      fetchSupportedNode(supportedMajor);
    } catch (err) {
      stop(`✖ ${err.message}`);
    }
  } else {
    say(`This machine has Node ${process.versions.node}; running on Node ${supportedMajor} from .cache/node`);
  }
  return rerunOnCachedNode();
}
