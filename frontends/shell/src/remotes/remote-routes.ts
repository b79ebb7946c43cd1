import { pathSegments, segmentsMatch } from '@lsp/contracts';

/** A remote as the registry describes it: where its entry is and the paths it renders. */
export interface RemoteRoutes<Name extends string = string> {
  name: Name;
  /** React Router paths (`/search-results/:id`), as published in its routes.json; null when unreadable. */
  paths: readonly string[] | null;
}

/** Whether a concrete path is one of a declared list's (a `:param` takes any one segment). */
export function pathServedBy(paths: readonly string[], pathname: string): boolean {
  const concrete = pathSegments(pathname);
  return paths.some((declared) => segmentsMatch(pathSegments(declared), concrete));
}

/**
 * Which remote renders a path the shell does not render itself: the one whose published routes
 * declare it. Anything else is the shell's 404.
 */
export function remoteForPath<Name extends string>(
  pathname: string,
  remotes: ReadonlyArray<RemoteRoutes<Name>>,
): Name | null {
  return remotes.find((remote) => remote.paths && pathServedBy(remote.paths, pathname))?.name ?? null;
}

/**
 * Where a path goes: the remote that declares it; else, while some remote's routes could not be read,
 * that remote (it may be the one that serves the path: its page says so, with Retry); else nowhere (404).
 */
export function routeForPath<Name extends string>(
  pathname: string,
  remotes: ReadonlyArray<RemoteRoutes<Name>>,
): { remote: Name; known: boolean } | null {
  const remote = remoteForPath(pathname, remotes);
  if (remote) return { remote, known: true };
  const unread = remotes.find((r) => r.paths === null);
  return unread ? { remote: unread.name, known: false } : null;
}
