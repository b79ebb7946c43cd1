// Remote locations come from the gateway's /remotes.json at runtime, so a remote can move or be
// redeployed without rebuilding the shell.
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

export type RemoteName = 'search' | 'dashboard';

interface RemoteEntry {
  name: string;
  entry: string;
}

let registry: Promise<RemoteEntry[]> | null = null;

async function fetchRegistry(): Promise<RemoteEntry[]> {
  const res = await fetch('/remotes.json', { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`The remote registry answered ${res.status}`);
  const list = (await res.json()) as unknown;
  if (!Array.isArray(list)) throw new Error('The remote registry is not a list');
  const remotes = list.filter(
    (r): r is RemoteEntry => typeof r?.name === 'string' && typeof r?.entry === 'string',
  );
  registerRemotes(remotes);
  return remotes;
}

function ensureRegistry(): Promise<RemoteEntry[]> {
  registry ??= fetchRegistry().catch((err) => {
    // Forget the failure so Retry asks again.
    registry = null;
    throw err;
  });
  return registry;
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
  if (fresh) registerRemotes([remote], { force: true });
  const module = await loadRemote<{ default?: ComponentType; App?: ComponentType }>(`${name}/App`);
  const App = module?.default ?? module?.App;
  if (!App) throw new Error(`${name}/App exports no component (default or App)`);
  return App;
}
