// `npm run build:services`: compiles the TypeScript that production runs to CommonJS JavaScript with
// swc, one file at a time (docs/decisions/0005-production-runs-compiled-javascript-from-one-parameterised.md). Type errors are
// not this script's business: `npm run typecheck` covers the whole workspace.
//
//   packages/<pkg>/src/**  -> packages/<pkg>/dist/**   (the workspace packages services import)
//   services/<svc>/src/**  -> services/<svc>/dist/**   (servers, workers, and the files they read)
//   frontends/<app>/server.ts -> frontends/dist/<app>/server.js   (the static servers, on @lsp/frontend-kit)
//
// Each dist mirrors its src folder at the same depth, so code that finds files from __dirname (the
// search panel's data/, service-kit's ../../../package.json) finds them in dist too; files other than
// TypeScript are copied as they are. `node scripts/build-node.mjs services/search` builds only the
// units under the given paths. embedded-mongo is built on its own with tsc, for its declarations
// (`npm run build -w packages/embedded-mongo`).
import { transformFile } from '@swc/core';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/bootstrap.mjs';
import { compiledEntryOf } from './lib/node-build.mjs';

/** The workspace packages services import at run time, compiled with them. */
const COMPILED_PACKAGES = ['packages/contracts', 'packages/service-kit', 'packages/frontend-kit'];

/** The transform jest applies to the same files (jest.config.js), so tests and production agree. */
const SWC_OPTIONS = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  // import() stays a real dynamic import, as tsx leaves it, so it can load ES modules.
  module: { type: 'commonjs', ignoreDynamic: true },
  swcrc: false,
  configFile: false,
};

/** Where the build puts an entry point's JavaScript (kept beside the stack's use of it). */
export { compiledEntryOf };

/** Every unit: the files to compile or copy, each with the path it is written to. */
function units() {
  const workspaceUnit = (workspace) => ({
    name: workspace,
    outDir: path.join(ROOT, workspace, 'dist'),
    files: filesUnder(path.join(ROOT, workspace, 'src')).map((file) => ({
      file,
      out: path.join(ROOT, workspace, 'dist', path.relative(path.join(ROOT, workspace, 'src'), file)),
    })),
  });
  const services = readdirSync(path.join(ROOT, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(ROOT, 'services', entry.name, 'src')))
    .map((entry) => `services/${entry.name}`)
    .sort();
  const frontendsDir = path.join(ROOT, 'frontends');
  const frontendServers = readdirSync(frontendsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(frontendsDir, entry.name, 'server.ts')))
    .map((entry) => path.join(frontendsDir, entry.name, 'server.ts'));
  return [
    ...[...COMPILED_PACKAGES, ...services].map(workspaceUnit),
    {
      name: 'frontends',
      outDir: path.join(frontendsDir, 'dist'),
      files: frontendServers.map((file) => ({
        file,
        out: path.join(frontendsDir, 'dist', path.relative(frontendsDir, file)),
      })),
    },
  ];
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : [full];
    })
    .filter((file) => !file.endsWith('.d.ts') && !/\.test\.ts$/.test(file))
    .sort();
}

async function buildUnit(unit) {
  rmSync(unit.outDir, { recursive: true, force: true });
  let compiled = 0;
  for (const { file, out } of unit.files) {
    mkdirSync(path.dirname(out), { recursive: true });
    if (file.endsWith('.ts')) {
      const { code } = await transformFile(file, { ...SWC_OPTIONS, filename: file });
      writeFileSync(out.replace(/\.ts$/, '.js'), code);
      compiled += 1;
    } else {
      copyFileSync(file, out);
    }
  }
  return { compiled, copied: unit.files.length - compiled };
}

/** Builds every unit under one of `only` (paths from the root), or all of them. */
export async function buildNode(only = []) {
  const chosen = units().filter(
    (unit) =>
      only.length === 0 || only.some((prefix) => unit.name === prefix || unit.name.startsWith(`${prefix}/`)),
  );
  if (only.length > 0 && chosen.length === 0) throw new Error(`nothing to build under ${only.join(', ')}`);
  const results = [];
  for (const unit of chosen) results.push({ name: unit.name, ...(await buildUnit(unit)) });
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  buildNode(process.argv.slice(2)).then(
    (results) => {
      for (const { name, compiled, copied } of results)
        console.log(`${name}: ${compiled} compiled${copied ? `, ${copied} copied` : ''}`);
      console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
