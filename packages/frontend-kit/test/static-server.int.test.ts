import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { cacheControlFor } from '../src/cache-control';

const FIXTURE = path.join(__dirname, 'fixtures', 'serve-dist.ts');

interface Served {
  base: string;
  child: ChildProcess;
}

function serve(env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr.trim()}`)));
    readline
      .createInterface({ input: child.stdout! })
      .once('line', (port) => resolve({ base: `http://127.0.0.1:${port.trim()}`, child }));
  });
}

function stop({ child }: Served): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('frontend static server', () => {
  let dist: string;
  let shell: Served;
  let remote: Served;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'lsp-static-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'main.js'), 'import("./bootstrap")');
    writeFileSync(path.join(dist, '873.88aa0ab02f.js'), 'chunk');
    writeFileSync(path.join(dist, '873.88aa0ab02f.js.gz'), gzipSync('chunk'));
    writeFileSync(path.join(dist, 'remoteEntry.js'), 'entry');
    writeFileSync(path.join(dist, 'mf-manifest.json'), '{}');
    [shell, remote] = await Promise.all([
      serve({ STATIC_DIST: dist, STATIC_SPA: '1' }),
      serve({ STATIC_DIST: dist, STATIC_PREFIX: '/mf/search/' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([shell && stop(shell), remote && stop(remote)]);
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers a page path of the shell with index.html, never cached', async () => {
    const res = await fetch(`${shell.base}/dip/development/1?x=1`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('id="root"');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing asset with 404 rather than the page', async () => {
    expect((await fetch(`${shell.base}/missing.0123456789.js`)).status).toBe(404);
  });

  it('caches content-hashed chunks for a year and revalidates entry files', async () => {
    expect((await fetch(`${shell.base}/873.88aa0ab02f.js`)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await fetch(`${shell.base}/main.js`)).headers.get('cache-control')).toBe('no-cache');
    expect(cacheControlFor('/x/remoteEntry.js')).toBe('no-cache');
    expect(cacheControlFor('/x/mf-manifest.json')).toBe('no-cache');
    expect(cacheControlFor('/x/873.88aa0ab02f.js.br')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/x/remoteEntry.js.gz')).toBe('no-cache');
  });

  it('sends the build-time gzip file to a browser that accepts gzip', async () => {
    const res = await fetch(`${shell.base}/873.88aa0ab02f.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe('chunk');
  });

  it('serves a remote under its gateway prefix as well as at the root', async () => {
    const viaGateway = await fetch(`${remote.base}/mf/search/mf-manifest.json`);
    expect(viaGateway.status).toBe(200);
    expect(viaGateway.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${remote.base}/remoteEntry.js`)).status).toBe(200);
  });

  it('gives a remote no page fallback', async () => {
    expect((await fetch(`${remote.base}/loan-results`)).status).toBe(404);
  });

  it('refuses to start without a build', async () => {
    await expect(serve({ STATIC_DIST: path.join(dist, 'nope'), STATIC_SPA: '1' })).rejects.toThrow(
      'npm run build',
    );
  });
});
