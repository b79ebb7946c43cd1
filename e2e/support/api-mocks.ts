// Answers the browser's API calls in the frontend-only browser tests from the route declarations in
// @lsp/contracts: a mock must name a route the platform declares, a status that route declares, and a
// body that matches that status's schema, or the test fails there. So a mock cannot drift from what
// the services answer (their own integration tests check every real answer against the same schemas).
import { PUBLIC_API_ROUTES, type RouteContract } from '@lsp/contracts';
import type { Page, Request, Route } from '@playwright/test';

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/**
 * The declared route a request is for: same method and as many segments, each literal segment equal;
 * of several, the one whose literal segments come earliest (`/api/online-dip/shared/:slug` before
 * `/api/online-dip/:reference`), as the gateway routes them.
 */
export function declaredRouteOf(method: string, pathname: string): RouteContract | undefined {
  const wanted = segmentsOf(pathname);
  const candidates = PUBLIC_API_ROUTES.filter((route) => {
    if (route.method !== method.toUpperCase()) return false;
    const own = segmentsOf(route.path);
    return own.length === wanted.length && own.every((s, i) => s.startsWith(':') || s === wanted[i]);
  });
  const literalRank = (route: RouteContract) =>
    segmentsOf(route.path)
      .map((segment) => (segment.startsWith(':') ? '1' : '0'))
      .join('');
  return candidates.sort((a, b) => literalRank(a).localeCompare(literalRank(b)))[0];
}

/** Why `body` is not what `request`'s declared route answers with `status`, or null when it is. */
export function mockProblem(request: Pick<Request, 'method' | 'url'>, status: number, body: unknown) {
  const { pathname } = new URL(request.url());
  const route = declaredRouteOf(request.method(), pathname);
  if (!route) return `${request.method()} ${pathname} is not a declared route`;
  const declared = route.responses[status];
  if (!declared) return `${route.operationId} does not declare a ${status} answer`;
  if (!declared.schema) return null;
  const parsed = declared.schema.safeParse(body);
  if (parsed.success) return null;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
  return `${route.operationId} ${status}: ${issues}`;
}

/** Fulfils `route` with a JSON answer its declared route may give; throws (failing the test) otherwise. */
export async function fulfillDeclared(route: Route, status: number, body: unknown) {
  const problem = mockProblem(route.request(), status, body);
  if (problem) {
    await route.abort('failed');
    throw new Error(`A mock answer does not match the route's contract: ${problem}`);
  }
  await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
}

/** Answers every request matching `url` with a checked `status` and `body` (the body may depend on the request). */
export async function mockDeclared(
  page: Page,
  url: string | RegExp,
  status: number,
  body: unknown | ((request: Request) => unknown),
) {
  await page.route(url, (route) =>
    fulfillDeclared(
      route,
      status,
      typeof body === 'function' ? (body as (request: Request) => unknown)(route.request()) : body,
    ),
  );
}
