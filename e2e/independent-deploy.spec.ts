// Independent deploys: the dashboard remote is rebuilt with a visible change
// into a separate output folder and served from there; the registry (`/remotes.json`, which the
// gateway serves from REMOTES_JSON) is pointed at the new build, and the shell that is already
// running, never rebuilt, shows the change after a reload.
//
// The test runs its own servers, so it needs no services: the three frontends' static servers
// (@lsp/frontend-kit's static server, as in production) on the builds in frontends/*/dist, the new
// dashboard build on a fourth, and a front door standing in for the gateway that serves
// `/remotes.json` from a file re-read on every request and proxies /mf/* as the gateway does. The
// session and the dashboard's lists are answered in the page. Run it with
// `E2E_STACK=frontends npx playwright test e2e/independent-deploy.spec.ts` after `npm run build`.
import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import webpack from 'webpack';
import { buildStaticServer } from '../packages/frontend-kit/src/static-server';
import { proxy } from './support/frontend-harness';
import { expectNoAxeViolations, screenshotBothWidths, signInAs } from './support/shell-helpers';

const ROOT = path.resolve(__dirname, '..');
const WORK = path.join(ROOT, 'test-results', 'independent-deploy');
const V2_DIR = path.join(WORK, 'dashboard-v2');
const REGISTRY_FILE = path.join(WORK, 'remotes.json');
const MARKER = 'Dashboard remote: deploy v2';
/** A page only the new build has: the shell learns of it from the routes.json the build publishes. */
const NEW_PAGE = { path: '/whats-new', heading: 'What is new in your dashboard' };

interface Registry {
  name: string;
  entry: string;
}
const V1_REGISTRY: Registry[] = [
  { name: 'search', entry: '/mf/search/mf-manifest.json' },
  { name: 'dashboard', entry: '/mf/dashboard/mf-manifest.json' },
];

/** Every file of the shell's build, hashed: the shell must be the same before and after the deploy. */
function shellBuildHash(): string {
  const dist = path.join(ROOT, 'frontends/shell/dist');
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(path.relative(dist, file)).update(readFileSync(file));
    }
  };
  walk(dist);
  return hash.digest('hex');
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/**
 * The dashboard remote's source copied aside with two visible changes (a line above every dashboard
 * page, and a page of its own at NEW_PAGE.path), built for production by the same webpack set-up
 * into its own folder.
 */
async function buildDashboardV2(): Promise<string> {
  rmSync(V2_DIR, { recursive: true, force: true });
  mkdirSync(V2_DIR, { recursive: true });
  cpSync(path.join(ROOT, 'frontends/dashboard/src'), path.join(V2_DIR, 'src'), { recursive: true });
  cpSync(path.join(ROOT, 'frontends/dashboard/package.json'), path.join(V2_DIR, 'package.json'));
  const routes = JSON.parse(readFileSync(path.join(ROOT, 'frontends/dashboard/routes.json'), 'utf8')) as {
    paths: string[];
  };
  writeFileSync(
    path.join(V2_DIR, 'routes.json'),
    JSON.stringify({ paths: [...routes.paths, NEW_PAGE.path] }),
  );
  const appFile = path.join(V2_DIR, 'src/app.tsx');
  const source = readFileSync(appFile, 'utf8');
  const changed = source
    .replace(
      '    <Routes>',
      `    <>\n      <p className="ui-container" data-testid="deploy-marker">${MARKER}</p>\n      <Routes>`,
    )
    .replace('    </Routes>', '      </Routes>\n    </>')
    .replace(
      '<Route path="*"',
      `<Route path="${NEW_PAGE.path}" element={<h1 className="ui-container">${NEW_PAGE.heading}</h1>} />\n      <Route path="*"`,
    );
  expect(changed).toContain(NEW_PAGE.heading);
  expect(changed).toContain(MARKER);
  writeFileSync(appFile, changed);

  const { createConfig } = require('../packages/frontend-kit/webpack/webpack.common.js') as {
    createConfig(app: {
      name: string;
      dir: string;
      host: boolean;
      title: string;
    }): (env: unknown, argv: { mode: string }) => webpack.Configuration;
  };
  const config = createConfig({ name: 'dashboard', dir: V2_DIR, host: false, title: 'Dashboard' })(
    {},
    { mode: 'production' },
  );
  // The copy sits outside the workspace folder: its dependencies resolve from the dashboard's own
  // node_modules and the root's.
  config.resolve = {
    ...config.resolve,
    modules: ['node_modules', path.join(ROOT, 'frontends/dashboard/node_modules')],
  };
  await new Promise<void>((resolve, reject) =>
    webpack(config, (err, stats) => {
      if (err) return reject(err);
      if (stats?.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve();
    }),
  );
  const dist = path.join(V2_DIR, 'dist');
  expect(existsSync(path.join(dist, 'mf-manifest.json'))).toBe(true);
  return dist;
}

let frontDoor: http.Server;
let baseUrl = '';
const servers: FastifyInstance[] = [];
const ports: Record<string, number> = {};

test.beforeAll(async () => {
  for (const app of ['shell', 'search', 'dashboard'])
    if (!existsSync(path.join(ROOT, 'frontends', app, 'dist/index.html')))
      throw new Error(`frontends/${app} has no build: run \`npm run build\` first`);
  mkdirSync(WORK, { recursive: true });
  writeFileSync(REGISTRY_FILE, JSON.stringify(V1_REGISTRY));
  process.env.LOG_LEVEL = 'warn';
  const start = async (name: string, dist: string, prefix?: string) => {
    const app = await buildStaticServer({ dist, prefix, spaFallback: name === 'shell' });
    servers.push(app);
    ports[name] = await listen(app);
  };
  await start('shell', path.join(ROOT, 'frontends/shell/dist'));
  await start('search', path.join(ROOT, 'frontends/search/dist'), '/mf/search/');
  await start('dashboard', path.join(ROOT, 'frontends/dashboard/dist'), '/mf/dashboard/');

  // The gateway's part: /remotes.json (no-cache) from its configuration, /mf/<remote>/ to each remote.
  frontDoor = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/remotes.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(readFileSync(REGISTRY_FILE));
    } else if (url.startsWith('/api/')) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'answered in the page in this test' }));
    } else if (url.startsWith('/mf/search/')) proxy(req, res, ports.search);
    else if (url.startsWith('/mf/dashboard-v2/') && ports['dashboard-v2'])
      proxy(req, res, ports['dashboard-v2']);
    else if (url.startsWith('/mf/dashboard/')) proxy(req, res, ports.dashboard);
    else proxy(req, res, ports.shell);
  });
  await new Promise<void>((resolve) => frontDoor.listen(0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(frontDoor.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (frontDoor ? frontDoor.close(() => resolve()) : resolve()));
  await Promise.all(servers.map((app) => app.close()));
});

test('a rebuilt dashboard remote reaches the running shell through remotes.json alone', async ({ page }) => {
  test.setTimeout(240_000);
  const shellBefore = shellBuildHash();
  const shellPort = ports.shell;
  await signInAs(page);

  // Today's dashboard, through the running shell.
  await page.goto(`${baseUrl}/dashboard`);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  await expect(page.getByTestId('deploy-marker')).toHaveCount(0);

  // Deploy: build the changed remote into its own folder and serve it beside the old one.
  const v2Dist = await buildDashboardV2();
  await start2(v2Dist);
  // Nothing changes for a page until the registry points at the new build.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  await expect(page.getByTestId('deploy-marker')).toHaveCount(0);
  await page.goto(`${baseUrl}${NEW_PAGE.path}`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  writeFileSync(
    REGISTRY_FILE,
    JSON.stringify(
      V1_REGISTRY.map((r) =>
        r.name === 'dashboard' ? { name: 'dashboard', entry: '/mf/dashboard-v2/mf-manifest.json' } : r,
      ),
    ),
  );
  const loadedFrom: string[] = [];
  page.on('request', (req) => {
    const pathname = new URL(req.url()).pathname;
    if (pathname.startsWith('/mf/dashboard')) loadedFrom.push(pathname);
  });
  await page.goto(`${baseUrl}/dashboard`);
  await expect(page.getByTestId('deploy-marker')).toHaveText(MARKER);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  expect(loadedFrom.some((p) => p.startsWith('/mf/dashboard-v2/'))).toBe(true);
  expect(loadedFrom.filter((p) => p.startsWith('/mf/dashboard/'))).toEqual([]);
  // Other dashboard pages come from the new build too (their chunks load from its folder).
  await page.goto(`${baseUrl}/dip/development/1`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Development Finance DIP Application' }),
  ).toBeVisible();
  await expect(page.getByTestId('deploy-marker')).toHaveText(MARKER);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'independent-deploy-dashboard-v2');
  // The page the new build added is routed to it by the paths it published, with no change to the shell.
  await page.goto(`${baseUrl}${NEW_PAGE.path}`);
  await expect(page.getByRole('heading', { level: 1, name: NEW_PAGE.heading })).toBeVisible();

  // The shell was neither rebuilt nor restarted.
  expect(shellBuildHash()).toBe(shellBefore);
  expect(ports.shell).toBe(shellPort);

  // And back: pointing the registry at the old build rolls the change back, again without the shell.
  writeFileSync(REGISTRY_FILE, JSON.stringify(V1_REGISTRY));
  await page.goto(`${baseUrl}/dashboard`);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  await expect(page.getByTestId('deploy-marker')).toHaveCount(0);
  await page.goto(`${baseUrl}${NEW_PAGE.path}`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

async function start2(dist: string) {
  const app = await buildStaticServer({ dist, prefix: '/mf/dashboard-v2/', spaFallback: false });
  servers.push(app);
  ports['dashboard-v2'] = await listen(app);
}
