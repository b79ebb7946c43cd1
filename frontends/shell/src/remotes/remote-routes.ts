import type { RemoteName } from './remote-registry';

/**
 * Which remote renders a path the shell does not render itself. Exact paths and prefixes (a prefix
 * also matches its sub-paths). Anything else is the shell's 404.
 */
const ROUTES: Array<{ remote: RemoteName; exact?: string[]; prefixes?: string[] }> = [
  {
    remote: 'search',
    exact: ['/', '/results-gate', '/loan-results', '/application'],
    prefixes: ['/search-results/'],
  },
  {
    remote: 'dashboard',
    exact: ['/shared-with-me'],
    prefixes: ['/dashboard', '/dip', '/dips', '/shared', '/share', '/shared-deal', '/refer', '/operations'],
  },
];

export function remoteForPath(pathname: string): RemoteName | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const route of ROUTES) {
    if (route.exact?.includes(path)) return route.remote;
    if (
      route.prefixes?.some((prefix) =>
        prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`),
      )
    ) {
      return route.remote;
    }
  }
  return null;
}
