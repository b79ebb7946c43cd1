// The frontends' size budgets, one file (packages/frontend-kit/budgets.json): `build` is checked on
// every production build, which fails naming each file over its budget; `measured` are the page
// budgets `npm run bench -- frontend-sizes` measures in Chromium. docs/performance.md states both.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUDGETS_FILE = path.join(ROOT, 'packages/frontend-kit/budgets.json');

export function readBudgets() {
  return JSON.parse(readFileSync(BUDGETS_FILE, 'utf8'));
}

/** The budget of one built file in KB gzip, or null for a file no budget covers. */
export function budgetOf(name, build) {
  if (name in build.entryGzipKb) return build.entryGzipKb[name];
  if (name.endsWith('.js')) return build.scriptGzipKb;
  if (name.endsWith('.css')) return build.stylesheetGzipKb;
  return null;
}

/**
 * The files over their budget: `files` are `{ name, gzipBytes }`; each answer names the file, its
 * size and its budget in KB gzip.
 */
export function overBudget(files, build) {
  return files.flatMap(({ name, gzipBytes }) => {
    const budgetKb = budgetOf(name, build);
    const gzipKb = gzipBytes / 1024;
    return budgetKb !== null && gzipKb > budgetKb ? [{ name, gzipKb, budgetKb }] : [];
  });
}

/** The gzip size of every script and stylesheet an app's build wrote to its dist folder. */
export function builtFiles(dist) {
  return readdirSync(dist)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => ({ name, gzipBytes: gzipSync(readFileSync(path.join(dist, name)), { level: 9 }).length }));
}

/** A line per file over budget, e.g. "873.88aa0ab02f.js is 63.8 KB gzip, over its budget of 60 KB". */
export function describeOverBudget(over) {
  return over.map(
    ({ name, gzipKb, budgetKb }) =>
      `${name} is ${gzipKb.toFixed(1)} KB gzip, over its budget of ${budgetKb} KB`,
  );
}
