// Every dependency with an install script is allowed or denied by package.json's allowScripts, and the
// install of npm start and npm test is `npm ci` (exactly the lock file).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const BOOTSTRAP_MODULE = '../lib/bootstrap.mjs';

const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

/** The package names in the lock file whose packages have an install script. */
const withInstallScripts = [
  ...new Set(
    Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([location]) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  ),
].sort();

describe('install scripts under a policy', () => {
  it('allows or denies every locked package that has an install script', () => {
    const policy = packageJson.allowScripts ?? {};
    expect(withInstallScripts.length).toBeGreaterThan(0);
    expect(withInstallScripts.filter((name) => typeof policy[name] !== 'boolean')).toEqual([]);
  });

  it('allows only the scripts the tools need, and never a browser download or an optional native build', () => {
    const policy = packageJson.allowScripts ?? {};
    const allowed = Object.keys(policy).filter((name) => policy[name] === true);
    expect(allowed.sort()).toEqual(['@swc/core', 'esbuild']);
    for (const denied of ['puppeteer', 'ssh2', 'cpu-features']) expect(policy[denied]).toBe(false);
  });

  it('installs with npm ci', async () => {
    const { INSTALL_DEPENDENCIES } = (await import(BOOTSTRAP_MODULE)) as { INSTALL_DEPENDENCIES: string[] };
    expect(INSTALL_DEPENDENCIES[0]).toBe('ci');
  });
});
