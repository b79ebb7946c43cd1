// The compiled form of the single-machine stack: `npm start`, the browser tests, the chaos run and the
// benchmarks run the services, workers and the embedded MongoDB from the same JavaScript the images
// run (docs/decisions/0080-the-single-machine-stack-runs-compiled-javascript-too.md), rebuilt here when
// any of their sources is newer than the last build, and the frontends' static servers too (pointed
// at the webpack output beside their source with STATIC_DIST, where the image puts it beside the
// compiled file).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, say } from './bootstrap.mjs';

/** Touched after each successful build; the sources are compared with it. */
const STAMP = path.join(ROOT, 'node_modules', '.cache', 'lsp-node-build.stamp');
/** What the compiled processes are made from (the workspace packages they import, every service). */
const SOURCE_ROOTS = [
  'packages/contracts/src',
  'packages/service-kit/src',
  'packages/embedded-mongo/src',
  'packages/embedded-mongo/bin',
  'packages/frontend-kit/src',
];
const EMBEDDED_MONGO_BIN = 'packages/embedded-mongo/bin/embedded-mongo.ts';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function sourceRoots() {
  const services = readdirSync(path.join(ROOT, 'services'))
    .map((name) => `services/${name}/src`)
    .filter((dir) => existsSync(path.join(ROOT, dir)));
  const frontendServers = readdirSync(path.join(ROOT, 'frontends'))
    .map((name) => `frontends/${name}/server.ts`)
    .filter((file) => existsSync(path.join(ROOT, file)));
  return [...SOURCE_ROOTS, ...services, ...frontendServers, 'package-lock.json'];
}

/** True when a source, or the lock file, changed after the last build (or there was none). */
export function nodeBuildIsStale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return sourceRoots().some((root) => {
    const full = path.join(ROOT, root);
    return (
      existsSync(full) && (statSync(full).isDirectory() ? newestMtime(full) : statSync(full).mtimeMs) > built
    );
  });
}

/**
 * Builds the services and static servers (swc, scripts/build-node.mjs) and the embedded MongoDB (tsc)
 * when stale, each in a child process: the process that then supervises the stack for hours should
 * not keep swc's native binding and the build's heap (about 60 MB) resident.
 */
export async function ensureNodeBuild() {
  if (!nodeBuildIsStale()) return;
  const started = Date.now();
  say('building the services and the embedded MongoDB (JavaScript, as the images run them)...');
  const swc = spawnSync(
    process.execPath,
    [path.join(ROOT, 'scripts/build-node.mjs'), 'packages', 'services', 'frontends'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (swc.status !== 0) throw new Error('the services did not build (node scripts/build-node.mjs)');
  const tsc = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'packages/embedded-mongo/tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0)
    throw new Error(
      'the embedded MongoDB did not build (tsc -p packages/embedded-mongo/tsconfig.build.json)',
    );
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, new Date().toISOString());
  say(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The node arguments that run a source entry point: its compiled file, or the source through tsx. */
export function nodeArgsFor(entry, compiled) {
  if (!compiled) return ['--import', 'tsx', entry];
  if (entry === EMBEDDED_MONGO_BIN) return ['packages/embedded-mongo/dist/bin/embedded-mongo.js'];
  return [compiledEntryOf(entry)];
}

/**
 * Where the build puts the JavaScript of a source entry point, as a path from the repository root:
 * services/dip/src/worker.ts -> services/dip/dist/worker.js, frontends/shell/server.ts ->
 * frontends/dist/shell/server.js. Images and manifests name these.
 */
export function compiledEntryOf(sourceEntry) {
  const parts = sourceEntry.split('/');
  const js = (file) => file.replace(/\.ts$/, '.js');
  if (parts[0] === 'frontends')
    return ['frontends', 'dist', ...parts.slice(1, -1), js(parts.at(-1))].join('/');
  if (parts[2] !== 'src') throw new Error(`${sourceEntry} is not under a workspace's src folder`);
  return [parts[0], parts[1], 'dist', ...parts.slice(3, -1), js(parts.at(-1))].join('/');
}
