// Prints the gzip sizes the browser pays: the shell's initial JavaScript (everything a first visit
// downloads before any remote or page chunk), the dashboard remote's first load (what a signed-in
// user's first visit to /dashboard downloads from the remote, the shell already loaded) and each
// remote's remoteEntry.js. Both figures are measured in Chromium, so they count exactly the files
// requested. Targets: shell initial JS under 150 KB gzip, dashboard first load under 90 KB gzip.
// Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tsImport } from 'tsx/esm/api';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET_KB = 150;
const DASHBOARD_TARGET_KB = 90;
// The flags live with the dip service's PDF renderer; tsx loads that TypeScript, as it runs the shell
// server below (plain Node would warn that the dip package names no module type).
const { LOOPBACK_CHROMIUM_FLAGS } = await tsImport(
  '../services/dip/src/pdf/chromium-flags.ts',
  import.meta.url,
);
const kb = (bytes) => (bytes / 1024).toFixed(1);
const gzipSize = (buffer) => gzipSync(buffer).length;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not answer`);
}

async function measureShellInitialJs() {
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'frontends/shell/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const { chromium } = await import('@playwright/test');
  let browser;
  try {
    await waitFor(`http://127.0.0.1:${port}/alive`, 20000);
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

function startFrontend(app, port) {
  return spawn(process.execPath, ['--import', 'tsx', `frontends/${app}/server.ts`], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function proxy(req, res, port) {
  const upstream = http.request(
    { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}

/**
 * The dashboard remote's first load: the shell and both remotes behind a small front door (the
 * gateway's /remotes.json and /mf/* routes), a signed-in session with empty lists answered in the
 * page, and every script and manifest fetched from /mf/dashboard/ while /dashboard opens. Shared
 * singletons (React, the router, the query client, @lsp/ui) come from the shell and are not counted.
 */
async function measureDashboardFirstLoad() {
  const ports = { shell: await freePort(), search: await freePort(), dashboard: await freePort() };
  const children = Object.entries(ports).map(([app, port]) => startFrontend(app, port));
  const frontDoor = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/remotes.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(
        JSON.stringify([
          { name: 'search', entry: '/mf/search/mf-manifest.json' },
          { name: 'dashboard', entry: '/mf/dashboard/mf-manifest.json' },
        ]),
      );
    } else if (url.startsWith('/mf/search/')) proxy(req, res, ports.search);
    else if (url.startsWith('/mf/dashboard/')) proxy(req, res, ports.dashboard);
    else proxy(req, res, ports.shell);
  });
  const { chromium } = await import('@playwright/test');
  let browser;
  try {
    await Promise.all(Object.values(ports).map((port) => waitFor(`http://127.0.0.1:${port}/alive`, 20000)));
    await new Promise((resolve) => frontDoor.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${frontDoor.address().port}`;
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
    frontDoor.close();
    for (const child of children) child.kill('SIGTERM');
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
