// `npm run build`: builds the shell and the two remotes with webpack, but only those whose inputs
// changed since their last build. Inputs are the app's own files, the shared webpack set-up, the
// workspace packages the browser bundles (@lsp/ui, @lsp/contracts) and the lock file; their content
// hash is kept in dist/.build-stamp. `--force` rebuilds everything; `--mode development` for dev builds.
// A production build fails when a file is over its size budget (packages/frontend-kit/budgets.json).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFiles, describeOverBudget, overBudget, readBudgets } from './lib/bundle-budgets.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const APPS = ['shell', 'search', 'dashboard'];
const SHARED_INPUTS = [
  'packages/frontend-kit/webpack',
  'packages/frontend-kit/budgets.json',
  'packages/ui/src',
  'packages/ui/package.json',
  'packages/contracts/src',
  'package-lock.json',
];
const STAMP = '.build-stamp';

function listFiles(target) {
  if (!existsSync(target)) return [];
  if (statSync(target).isFile()) return [target];
  return readdirSync(target, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist')
    .flatMap((entry) => listFiles(path.join(target, entry.name)));
}

export function inputHash(app) {
  const inputs = [
    ...SHARED_INPUTS,
    `frontends/${app}/src`,
    `frontends/${app}/webpack.config.js`,
    `frontends/${app}/package.json`,
  ];
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => listFiles(path.join(ROOT, input))).sort()) {
    hash.update(path.relative(ROOT, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function distOf(app) {
  return path.join(ROOT, 'frontends', app, 'dist');
}

function stampFile(app) {
  return path.join(distOf(app), STAMP);
}

function isFresh(app, hash, mode) {
  try {
    const stamp = JSON.parse(readFileSync(stampFile(app), 'utf8'));
    return stamp.hash === hash && stamp.mode === mode;
  } catch {
    return false;
  }
}

/**
 * Writes .br and .gz beside every text asset worth compressing, once at build time, so the static
 * servers send compressed files without spending CPU per request.
 */
function precompress(app) {
  const dist = path.join(ROOT, 'frontends', app, 'dist');
  for (const file of listFiles(dist)) {
    if (!/\.(js|css|html|json|svg)$/.test(file)) continue;
    const body = readFileSync(file);
    if (body.length < 1024) continue;
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

function compile(configs) {
  const webpack = require('webpack');
  return new Promise((resolve) => {
    webpack(configs).run((err, stats) => {
      if (err) {
        console.error(err);
        return resolve(configs.map(() => false));
      }
      const results = stats.stats.map((s) => {
        if (s.hasErrors())
          console.error(s.toString({ all: false, errors: true, colors: process.stdout.isTTY }));
        return !s.hasErrors();
      });
      resolve(results);
    });
  });
}

export async function buildFrontends({ force = false, mode = 'production', only = APPS } = {}) {
  const stale = [];
  for (const app of only) {
    const hash = inputHash(app);
    if (!force && isFresh(app, hash, mode)) console.log(`frontend ${app}: up to date`);
    else stale.push({ app, hash });
  }
  if (stale.length === 0) return true;
  const started = Date.now();
  console.log(`building ${stale.map((s) => s.app).join(', ')} (${mode})...`);
  const configs = stale.map(({ app }) =>
    require(path.join(ROOT, 'frontends', app, 'webpack.config.js'))({}, { mode }),
  );
  const results = await compile(configs);
  let ok = true;
  const { build: budgets } = readBudgets();
  stale.forEach(({ app, hash }, i) => {
    const over = results[i] && mode === 'production' ? overBudget(builtFiles(distOf(app)), budgets) : [];
    if (over.length) {
      ok = false;
      for (const line of describeOverBudget(over)) console.error(`frontend ${app}: ${line}`);
      console.error(
        `frontend ${app}: build FAILED (over the size budgets in packages/frontend-kit/budgets.json)`,
      );
    } else if (results[i]) {
      if (mode === 'production') precompress(app);
      writeFileSync(stampFile(app), JSON.stringify({ hash, mode, builtAt: new Date().toISOString() }));
      console.log(`frontend ${app}: built`);
    } else {
      ok = false;
      console.error(`frontend ${app}: build FAILED`);
    }
  });
  console.log(`frontends built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return ok;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const modeIndex = args.indexOf('--mode');
  const mode = modeIndex >= 0 ? args[modeIndex + 1] : 'production';
  const only = args.filter((a, i) => APPS.includes(a) && args[i - 1] !== '--mode');
  buildFrontends({ force: args.includes('--force'), mode, only: only.length ? only : APPS }).then(
    (ok) => process.exit(ok ? 0 : 1),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
