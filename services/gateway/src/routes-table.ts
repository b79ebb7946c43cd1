import {
  PUBLIC_API_ROUTES,
  type RouteContract,
  isPathParam as isParam,
  moreSpecific,
  pathSegments as segmentsOf,
  segmentsMatch,
} from '@lsp/contracts';

/**
 * Which service owns each /api path, derived from the routes declared in @lsp/contracts: a route the
 * contracts do not declare is not routed. Two rules, in order:
 *
 * 1. A path that matches a declared route (`:param` = any one segment) goes to that route's service;
 *    of several, the one with literal segments earliest wins (`/api/online-dip/shared/:slug` over
 *    `/api/online-dip/:dipId/share`). This is how sharing owns `/api/online-dip/{dipId}/share` inside
 *    dip's `/api/online-dip/...` paths.
 * 2. Otherwise the longest matching prefix (a route's literal segments before its first parameter,
 *    or fewer of them, down to `/api/<area>`), whole segments only, so `/api/search-result` goes to search and `/api/shared-deal` to sharing
 *    before `/api/shared`, and the owning service answers an unknown method or sub-path itself. A
 *    prefix several services share belongs to the one declaring the most routes under it.
 */
export type UpstreamName = Exclude<RouteContract['service'], 'gateway'>;

interface RoutePattern {
  segments: string[];
  upstream: UpstreamName;
}

/** The routes the gateway forwards: every declared route but the gateway's own. */
function forwardedRoutes(routes: readonly RouteContract[]) {
  return routes.flatMap((route) =>
    route.service === 'gateway' ? [] : [{ path: route.path, upstream: route.service as UpstreamName }],
  );
}

export function routePatternsOf(routes: readonly RouteContract[]): RoutePattern[] {
  const seen = new Set<string>();
  const patterns: RoutePattern[] = [];
  for (const { path, upstream } of forwardedRoutes(routes)) {
    if (seen.has(path)) continue;
    seen.add(path);
    patterns.push({ segments: segmentsOf(path), upstream });
  }
  return patterns;
}

/**
 * The prefix table: every literal leading part of each route's path (`/api/auth`, `/api/auth/me`),
 * owned by whoever declares most routes under it.
 */
export function apiPrefixesOf(
  routes: readonly RouteContract[],
): Array<{ prefix: string; upstream: UpstreamName }> {
  const counts = new Map<string, Map<UpstreamName, number>>();
  for (const { path, upstream } of forwardedRoutes(routes)) {
    const segments = segmentsOf(path);
    const firstParam = segments.findIndex(isParam);
    const literal = firstParam === -1 ? segments : segments.slice(0, firstParam);
    // `/api/auth/me` claims `/api/auth` too: the service answers the unknown paths of its area.
    for (let length = 2; length <= literal.length; length++) {
      const prefix = `/${literal.slice(0, length).join('/')}`;
      const byUpstream = counts.get(prefix) ?? new Map<UpstreamName, number>();
      byUpstream.set(upstream, (byUpstream.get(upstream) ?? 0) + 1);
      counts.set(prefix, byUpstream);
    }
  }
  return [...counts].map(([prefix, byUpstream]) => {
    const ranked = [...byUpstream].sort((a, b) => b[1] - a[1]);
    if (ranked.length > 1 && ranked[0]![1] === ranked[1]![1]) {
      throw new Error(
        `Routing table: ${prefix} is claimed by ${ranked.map(([u]) => u).join(' and ')} equally; declare which owns it`,
      );
    }
    return { prefix, upstream: ranked[0]![0] };
  });
}

export const API_ROUTE_PATTERNS = routePatternsOf(PUBLIC_API_ROUTES);
export const API_ROUTES: ReadonlyArray<{ prefix: string; upstream: UpstreamName }> =
  apiPrefixesOf(PUBLIC_API_ROUTES);

function matchingPattern(segments: string[]): RoutePattern | null {
  let best: RoutePattern | null = null;
  for (const pattern of API_ROUTE_PATTERNS) {
    if (segmentsMatch(pattern.segments, segments) && (!best || moreSpecific(pattern.segments, best.segments)))
      best = pattern;
  }
  return best;
}

/** The owning service of a path, or null when no declared route or prefix covers it. */
export function upstreamFor(path: string): UpstreamName | null {
  const pathname = path.split('?')[0] ?? '';
  const exact = matchingPattern(segmentsOf(pathname));
  if (exact) return exact.upstream;
  let best: { prefix: string; upstream: UpstreamName } | null = null;
  for (const route of API_ROUTES) {
    const matches = pathname === route.prefix || pathname.startsWith(`${route.prefix}/`);
    if (matches && (!best || route.prefix.length > best.prefix.length)) best = route;
  }
  return best?.upstream ?? null;
}
