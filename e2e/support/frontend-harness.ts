// A small stand-in for the gateway, for browser tests of the shell and remotes alone: starts the
// three frontend static servers and one HTTP front door that serves /remotes.json, proxies
// /mf/search/* and /mf/dashboard/* to the remotes and everything else to the shell. API calls
// answer as a signed-out visitor would see them (401 for /api/auth/me, 503 otherwise); tests that
// need a signed-in user or an API answer mock it in the page with page.route().
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@lsp/testing';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface Harness {
  url: string;
  stop(): Promise<void>;
}

/** Where a server's own output goes: the run's output, or nowhere (for a script printing a report). */
export type ServerOutput = 'inherit' | 'ignore';

/** One frontend's static server (frontends/<app>/server.ts) on `port`, as its own process. */
export function startFrontendServer(
  app: string,
  port: number,
  output: ServerOutput = 'inherit',
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'frontends', app, 'server.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', output, 'inherit'],
  });
}

/** Waits until `url` answers 2xx (a server that has just been started), or throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Passes a front-door request on to the server on `port` as it is; 502 if nothing answers there. */
export function proxy(req: http.IncomingMessage, res: http.ServerResponse, port: number) {
  const upstream = http.request(
    { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'upstream unavailable' }));
  });
  req.pipe(upstream);
}

/** With a base port: base (front door), base+1 shell, base+2 search, base+3 dashboard; else free ports. */
export async function startFrontendHarness(
  basePort?: number,
  output: ServerOutput = 'inherit',
): Promise<Harness> {
  const ports = basePort
    ? { shell: basePort + 1, search: basePort + 2, dashboard: basePort + 3 }
    : { shell: await freePort(), search: await freePort(), dashboard: await freePort() };
  const frontDoorPort = basePort ?? 0;
  const children = (Object.keys(ports) as Array<keyof typeof ports>).map((app) =>
    startFrontendServer(app, ports[app], output),
  );
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/remotes.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(
        JSON.stringify([
          { name: 'search', entry: '/mf/search/mf-manifest.json' },
          { name: 'dashboard', entry: '/mf/dashboard/mf-manifest.json' },
        ]),
      );
    } else if (url.startsWith('/api/')) {
      const signedOut = url.startsWith('/api/auth/me');
      res.writeHead(signedOut ? 401 : 503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: signedOut ? 'Not signed in' : 'The API is not part of this test set-up' }),
      );
    } else if (url.startsWith('/mf/search/')) proxy(req, res, ports.search);
    else if (url.startsWith('/mf/dashboard/')) proxy(req, res, ports.dashboard);
    else proxy(req, res, ports.shell);
  });
  const stop = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  try {
    await Promise.all([
      waitForHttp(`http://127.0.0.1:${ports.shell}/alive`, 30000),
      waitForHttp(`http://127.0.0.1:${ports.search}/alive`, 30000),
      waitForHttp(`http://127.0.0.1:${ports.dashboard}/alive`, 30000),
    ]);
    await new Promise<void>((resolve) => server.listen(frontDoorPort, '127.0.0.1', () => resolve()));
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop };
}
