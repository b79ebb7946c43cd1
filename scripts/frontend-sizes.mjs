// Prints the gzip sizes the browser pays: the shell's initial JavaScript (everything a first visit
// downloads before any remote or page chunk) and each remote's remoteEntry.js. The shell's figure is
// measured in Chromium against the built shell alone, so it counts exactly the files requested.
// Target: shell initial JS under 150 KB gzip. Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET_KB = 150;
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
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
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

function remoteEntrySize(app) {
  const file = path.join(ROOT, 'frontends', app, 'dist', 'remoteEntry.js');
  if (!existsSync(file)) return null;
  const body = readFileSync(file);
  return { raw: body.length, gzip: gzipSize(body) };
}

async function main() {
  if (!existsSync(path.join(ROOT, 'frontends/shell/dist/index.html')))
    throw new Error('No shell build: run `npm run build` first');
  const files = await measureShellInitialJs();
  const total = files.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), {
    raw: 0,
    gzip: 0,
  });
  console.log('Shell initial JavaScript (first visit, before any remote):');
  for (const f of files.sort((a, b) => b.gzip - a.gzip))
    console.log(`  ${f.name.padEnd(28)} ${kb(f.raw).padStart(7)} KB raw ${kb(f.gzip).padStart(7)} KB gzip`);
  console.log(
    `  ${'total'.padEnd(28)} ${kb(total.raw).padStart(7)} KB raw ${kb(total.gzip).padStart(7)} KB gzip (target < ${TARGET_KB} KB: ${total.gzip / 1024 < TARGET_KB ? 'met' : 'NOT met'})`,
  );
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
