// Remote locations come from the gateway's /remotes.json at runtime, so a remote can move or be
// redeployed without rebuilding the shell; the paths each remote renders come from the routes.json
// it publishes beside its entry, so a remote adds a page without a change to the shell.
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import type { RemoteRoutes } from './remote-routes';

export type RemoteName = 'search' | 'dashboard';
const REMOTE_NAMES: readonly string[] = ['search', 'dashboard'] satisfies RemoteName[];

export interface RemoteEntry extends RemoteRoutes<RemoteName> {
  entry: string;
}

let registry: Promise<RemoteEntry[]> | null = null;

async function fetchJson(url: string, what: string): Promise<unknown> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${what} answered ${res.status}`);
  return res.json();
}

async function routesOf(name: string, entry: string): Promise<string[]> {
  const url = new URL('routes.json', new URL(entry, window.location.href)).href;
  const manifest = (await fetchJson(url, `The ${name} remote's routes`)) as { paths?: unknown };
  if (!Array.isArray(manifest?.paths) || !manifest.paths.every((p) => typeof p === 'string')) {
    throw new Error(`The ${name} remote's routes.json has no list of paths`);
  }
  return manifest.paths as string[];
}

async function fetchRegistry(): Promise<RemoteEntry[]> {
  const list = await fetchJson('/remotes.json', 'The remote registry');
  if (!Array.isArray(list)) throw new Error('The remote registry is not a list');
  const located = list.filter(
    (r): r is { name: RemoteName; entry: string } =>
      REMOTE_NAMES.includes(r?.name) && typeof r?.entry === 'string',
  );
  // A remote whose routes cannot be read is kept with paths null: its pages answer 'could not be
  // loaded' with Retry, while every other remote's pages work as before.
  const remotes = await Promise.all(
    located.map(async ({ name, entry }) => ({
      name,
      entry,
      paths: await routesOf(name, entry).catch((err: Error) => {
        console.error(err);
        return null;
      }),
    })),
  );
  registerRemotes(remotes.map(({ name, entry }) => ({ name, entry })));
  return remotes;
}

/** The remotes and the paths each renders, read once (again after a failure, or when told to forget). */
export function ensureRegistry(): Promise<RemoteEntry[]> {
  registry ??= fetchRegistry().catch((err) => {
    // Forget the failure so Retry asks again.
    registry = null;
    throw err;
  });
  return registry;
}

/** Forgets the registry, so the next page asks again (Retry after a remote came back). */
export function forgetRegistry(): void {
  registry = null;
}

/** Starts reading the registry during start-up so the first remote page does not wait for it. */
export function prefetchRegistry(): void {
  ensureRegistry().catch(() => {
    // Reported (with Retry) by the page that needs a remote, if any.
  });
}

/**
 * Loads `<name>/App`. With `fresh`, the remote is registered again first, which drops whatever the
 * runtime cached from a failed attempt (Retry after the remote came back).
 */
export async function loadRemoteApp(name: RemoteName, fresh = false): Promise<ComponentType> {
  const remotes = await ensureRegistry();
  const remote = remotes.find((r) => r.name === name);
  if (!remote) throw new Error(`The remote registry has no "${name}"`);
  if (fresh) registerRemotes([{ name: remote.name, entry: remote.entry }], { force: true });
  const module = await loadRemote<{ default?: ComponentType; App?: ComponentType }>(`${name}/App`);
  const App = module?.default ?? module?.App;
  if (!App) throw new Error(`${name}/App exports no component (default or App)`);
  return App;
}
