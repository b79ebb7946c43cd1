// Prints the gzip sizes the browser pays: the shell's initial JavaScript (everything a first visit
// downloads before any remote or page chunk), the dashboard remote's first load (what a signed-in
// user's first visit to /dashboard downloads from the remote, the shell already loaded) and each
// remote's remoteEntry.js. Both figures are measured in Chromium, so they count exactly the files
// requested. Targets: `measured` in packages/frontend-kit/budgets.json (the build checks each file
// against `build`). Needs `npm run build` first.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tsImport } from 'tsx/esm/api';
import { readBudgets } from './lib/bundle-budgets.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const { measured } = readBudgets();
const TARGET_KB = measured.shellFirstVisitGzipKb;
const DASHBOARD_TARGET_KB = measured.dashboardFirstLoadGzipKb;
// The flags live with the dip service's PDF renderer; tsx loads that TypeScript, as it runs the shell
// server below (plain Node would warn that the dip package names no module type).
const { LOOPBACK_CHROMIUM_FLAGS } = await tsImport(
  '../services/dip/src/pdf/chromium-flags.ts',
  import.meta.url,
);
// The frontends' servers and the front door standing in for the gateway, as the browser tests start them.
const { freePort, startFrontendHarness, startFrontendServer, waitForHttp } = await tsImport(
  '../e2e/support/frontend-harness.ts',
  import.meta.url,
);
const kb = (bytes) => (bytes / 1024).toFixed(1);
const gzipSize = (buffer) => gzipSync(buffer).length;

async function measureShellInitialJs() {
  const port = await freePort();
  const server = startFrontendServer('shell', port, 'ignore');
  const { chromium } = await import('@playwright/test');
  let browser;
  try {
    await waitForHttp(`http://127.0.0.1:${port}/alive`, 20000);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LOOPBACK_CHROMIUM_FLAGS });
    const page = await browser.newPage();
    const scripts = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    // The home path belongs to a remote; with the shell alone the registry is missing, so this loads
    // the shell's own start-up code and nothing else.
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'networkidle' });
    const files = [];
    for (const response of scripts) {
      const body = await response.body();
      files.push({ name: new URL(response.url()).pathname.slice(1), raw: body.length, gzip: gzipSize(body) });
    }
    return files;
  } finally {
    await browser?.close();
    server.kill('SIGTERM');
  }
}

/**
 * The dashboard remote's first load: the shell and both remotes behind a small front door (the
 * gateway's /remotes.json and /mf/* routes), a signed-in session with empty lists answered in the
 * page, and every script and manifest fetched from /mf/dashboard/ while /dashboard opens. Shared
 * singletons (React, the router, the query client, @lsp/ui) come from the shell and are not counted.
 */
async function measureDashboardFirstLoad() {
  const harness = await startFrontendHarness(undefined, 'ignore');
  const { chromium } = await import('@playwright/test');
  let browser;
  try {
    const base = harness.url;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LOOPBACK_CHROMIUM_FLAGS });
    const page = await browser.newPage();
    const user = { id: 'u-size-1', name: 'Sam Size', email: 'sam.size@example.com', verified: true };
    await page.route('**/api/**', (route) => {
      const pathname = new URL(route.request().url()).pathname;
      const body =
        pathname === '/api/auth/me' ? { user } : pathname === '/api/shared/unread-count' ? { count: 0 } : [];
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    const responses = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/mf/dashboard/')) responses.push(response);
    });
    await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: /^Welcome back/ }).waitFor({ timeout: 20000 });
    const files = [];
    for (const response of responses) {
      const body = await response.body();
      files.push({
        name: new URL(response.url()).pathname.replace('/mf/dashboard/', ''),
        raw: body.length,
        gzip: gzipSize(body),
      });
    }
    return files;
  } finally {
    await browser?.close();
    await harness.stop();
  }
}

function printFiles(title, files, targetKb) {
  const total = files.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), {
    raw: 0,
    gzip: 0,
  });
  console.log(title);
  for (const f of [...files].sort((a, b) => b.gzip - a.gzip))
    console.log(`  ${f.name.padEnd(38)} ${kb(f.raw).padStart(7)} KB raw ${kb(f.gzip).padStart(7)} KB gzip`);
  console.log(
    `  ${'total'.padEnd(38)} ${kb(total.raw).padStart(7)} KB raw ${kb(total.gzip).padStart(7)} KB gzip (target < ${targetKb} KB: ${total.gzip / 1024 < targetKb ? 'met' : 'NOT met'})`,
  );
  // A page over its budget fails the benchmark, as a file over its budget fails the build.
  if (total.gzip / 1024 >= targetKb) process.exitCode = 1;
}

function remoteEntrySize(app) {
  const file = path.join(ROOT, 'frontends', app, 'dist', 'remoteEntry.js');
  if (!existsSync(file)) return null;
  const body = readFileSync(file);
  return { raw: body.length, gzip: gzipSize(body) };
}

async function main() {
  if (!existsSync(path.join(ROOT, 'frontends/shell/dist/index.html')))
    throw new Error('No shell build: run `npm run build` first');
  printFiles(
    'Shell initial JavaScript (first visit, before any remote):',
    await measureShellInitialJs(),
    TARGET_KB,
  );
  if (existsSync(path.join(ROOT, 'frontends/dashboard/dist/mf-manifest.json')))
    printFiles(
      'Dashboard remote first load (signed-in /dashboard, shell already loaded; scripts and manifest):',
      await measureDashboardFirstLoad(),
      DASHBOARD_TARGET_KB,
    );
  else console.log('Dashboard remote first load: not built');
  for (const app of ['search', 'dashboard']) {
    const size = remoteEntrySize(app);
    console.log(
      `${app} remoteEntry.js: ${size ? `${kb(size.raw)} KB raw, ${kb(size.gzip)} KB gzip` : 'not built'}`,
    );
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
