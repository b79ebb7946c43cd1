// npm start and npm test run on the supported Node: on an older one they fetch it into .cache/node once and
// run themselves again on it, with its bin first on PATH for every process they start.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const NODE_VERSION_MODULE = '../lib/node-version.mjs';
const ROOT = path.join(__dirname, '../..');

interface NodeVersionModule {
  NODE_CACHE_BIN: string;
  supportedNodeMajor(): number;
  majorOf(version: string | null): number;
  nodePlan(opts: { version: string; supportedMajor: number; cachedVersion: string | null }): string;
  cachedNodePackageJson(supportedMajor: number): {
    dependencies: Record<string, string>;
    allowScripts: Record<string, boolean>;
  };
  pathWithFirst(dir: string, currentPath: string, delimiter?: string): string;
}

const load = () => import(NODE_VERSION_MODULE) as Promise<NodeVersionModule>;

describe('the supported Node of npm start and npm test', () => {
  it("takes the supported major from package.json's engines, as .nvmrc and .node-version name it", async () => {
    const { supportedNodeMajor } = await load();
    const engines = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines;
    expect(`>=${supportedNodeMajor()}`).toBe(engines.node);
    expect(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(String(supportedNodeMajor()));
    expect(readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim()).toBe(String(supportedNodeMajor()));
  });

  it('runs on the supported major or newer, uses .cache/node when it holds that major, and fetches it otherwise', async () => {
    const { nodePlan } = await load();
    expect(nodePlan({ version: '24.0.0', supportedMajor: 24, cachedVersion: null })).toBe('run');
    expect(nodePlan({ version: '25.3.1', supportedMajor: 24, cachedVersion: null })).toBe('run');
    expect(nodePlan({ version: '20.20.2', supportedMajor: 24, cachedVersion: 'v24.21.0' })).toBe('use-cache');
    expect(nodePlan({ version: '18.19.0', supportedMajor: 24, cachedVersion: null })).toBe('fetch');
    // A cache of another major (package.json's engines moved on) is fetched again.
    expect(nodePlan({ version: '20.20.2', supportedMajor: 26, cachedVersion: 'v24.21.0' })).toBe('fetch');
  });

  it('installs the node package of that major into .cache/node, allowing only its install script', async () => {
    const { cachedNodePackageJson } = await load();
    const pkg = cachedNodePackageJson(24);
    expect(pkg.dependencies).toEqual({ node: '24' });
    expect(pkg.allowScripts).toEqual({ node: true });
  });

  it('puts the cached bin first on PATH once', async () => {
    const { pathWithFirst, NODE_CACHE_BIN } = await load();
    expect(NODE_CACHE_BIN).toBe(path.join(ROOT, '.cache/node/node_modules/node/bin'));
    expect(pathWithFirst('/c/bin', '/usr/bin:/c/bin:/bin', ':')).toBe('/c/bin:/usr/bin:/bin');
    expect(pathWithFirst('/c/bin', '', ':')).toBe('/c/bin');
  });
});
