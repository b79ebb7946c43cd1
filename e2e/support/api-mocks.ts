// Answers the browser's API calls in the frontend-only browser tests from the route declarations in
// @lsp/contracts: a mock must name a route the platform declares, a status that route declares, and a
// body that matches that status's schema, or the test fails there; and a mock may only answer success
// to a request body the route's declared body schema accepts (the service would refuse any other with
// a 400). So a mock cannot drift from what the services answer or accept (their own integration tests
// check every real answer against the same schemas).
import {
  PUBLIC_API_ROUTES,
  type RouteContract,
  moreSpecific,
  pathSegments,
  schemaProblem,
  segmentsMatch,
} from '@lsp/contracts';
import type { Page, Request, Route } from '@playwright/test';

/** The declared route a request is for: same method, and the path as the gateway would route it. */
export function declaredRouteOf(method: string, pathname: string): RouteContract | undefined {
  const concrete = pathSegments(pathname);
  let best: RouteContract | undefined;
  for (const route of PUBLIC_API_ROUTES) {
    if (route.method !== method.toUpperCase() || !segmentsMatch(pathSegments(route.path), concrete)) continue;
    if (!best || moreSpecific(pathSegments(route.path), pathSegments(best.path))) best = route;
  }
  return best;
}

/** Why `body` is not what `request`'s declared route answers with `status`, or null when it is. */
export function mockProblem(request: Pick<Request, 'method' | 'url'>, status: number, body: unknown) {
  const { pathname } = new URL(request.url());
  const route = declaredRouteOf(request.method(), pathname);
  if (!route) return `${request.method()} ${pathname} is not a declared route`;
  const declared = route.responses[status];
  if (!declared) return `${route.operationId} does not declare a ${status} answer`;
  const problem = declared.schema ? schemaProblem(declared.schema, body) : null;
  return problem && `${route.operationId} ${status}: ${problem}`;
}

/** Why the body the browser sent is not one `request`'s declared route accepts, or null when it is. */
export function requestProblem(request: Pick<Request, 'method' | 'url' | 'postData'>) {
  const { pathname } = new URL(request.url());
  const route = declaredRouteOf(request.method(), pathname);
  if (!route?.body) return null;
  const text = request.postData();
  let sent: unknown;
  try {
    sent = text ? JSON.parse(text) : undefined;
  } catch {
    return `${route.operationId}: the request body is not JSON`;
  }
  const problem = schemaProblem(route.body, sent);
  return problem && `${route.operationId} request: ${problem}`;
}

/**
 * Fulfils `route` with a JSON answer its declared route may give, a success only for a request body
 * the route accepts; throws (failing the test) otherwise.
 */
export async function fulfillDeclared(route: Route, status: number, body: unknown) {
  const problem =
    mockProblem(route.request(), status, body) ?? (status < 300 ? requestProblem(route.request()) : null);
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
