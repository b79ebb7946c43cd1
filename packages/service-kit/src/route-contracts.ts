import { PUBLIC_API_ROUTES, type RouteContract, findRouteContract, schemaProblem } from '@lsp/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Holds every service to the routes declared in @lsp/contracts:
 * - always: registering an /api route the contracts do not declare for this service throws, so a
 *   route without a contract cannot start (nor pass a single test);
 * - with response checks on (the integration tests: `RESPONSE_CONFORMANCE=strict`): every answer of a
 *   declared route must have a declared status and, when JSON, match that status's schema; one that
 *   does not is replaced by a 500 and logged, so the test that caused it fails.
 */

/** The environment switch the jest integration setup turns on. */
export const RESPONSE_CONFORMANCE_ENV = 'RESPONSE_CONFORMANCE';

export function responseChecksEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[RESPONSE_CONFORMANCE_ENV] === 'strict';
}

/** The processes that own declared routes; other names (workers, test apps) are left alone. */
const ROUTE_OWNERS = new Set<string>(PUBLIC_API_ROUTES.map((route) => route.service));

/** The message of the 500 that replaces a non-conforming answer (also the log line's). */
export const NON_CONFORMING_RESPONSE = 'The answer does not match the declared response of this route';

/** What the apps of this process registered, per service: a test compares it with the declarations. */
const registered = new Map<string, Set<string>>();

/** `METHOD /path` of every /api route the apps of a service registered in this process (no HEAD twins). */
export function registeredApiRoutes(service: string): string[] {
  return [...(registered.get(service) ?? [])].sort();
}

/** `METHOD /path` of every route the contracts declare for a service. */
export function declaredApiRoutes(service: string): string[] {
  return PUBLIC_API_ROUTES.filter((route) => route.service === service)
    .map((route) => `${route.method} ${route.path}`)
    .sort();
}

/** A path the checks are about: under /api/ and not a wildcard (the gateway's proxy forwards those). */
const isDeclarablePath = (url: string) => url.startsWith('/api/') && !url.includes('*');

function methodsOf(method: string | string[]): string[] {
  return (Array.isArray(method) ? method : [method]).filter((m) => m !== 'HEAD');
}

export function enforceRouteContracts(
  app: FastifyInstance,
  service: string,
  options: { checkResponses: boolean },
): void {
  if (!ROUTE_OWNERS.has(service)) return;
  const routes = registered.get(service) ?? new Set<string>();
  registered.set(service, routes);

  app.addHook('onRoute', (route) => {
    if (!isDeclarablePath(route.url)) return;
    for (const method of methodsOf(route.method)) {
      const contract = findRouteContract(method, route.url);
      if (!contract || contract.service !== service) {
        throw new Error(
          `${service} registers ${method} ${route.url}, which @lsp/contracts does not declare for it: ` +
            `declare it in packages/contracts/src/<domain>/routes.ts (see docs/adding-a-service.md)`,
        );
      }
      routes.add(`${method} ${route.url}`);
    }
  });

  if (!options.checkResponses) return;
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const url = request.routeOptions.url;
    if (!url || !isDeclarablePath(url)) return payload;
    const contract = findRouteContract(request.method === 'HEAD' ? 'GET' : request.method, url);
    if (!contract) return payload;
    const problem = conformanceProblem(contract, reply, payload);
    if (!problem) return payload;
    request.log.error(
      { route: `${contract.method} ${contract.path}`, status: reply.statusCode, problem },
      `${NON_CONFORMING_RESPONSE}: ${contract.method} ${contract.path} answered ${reply.statusCode}: ${problem}`,
    );
    reply.code(500).type('application/json; charset=utf-8');
    return JSON.stringify({
      success: false,
      error: `${NON_CONFORMING_RESPONSE} (${contract.method} ${contract.path} ${problem})`,
    });
  });
}

/** What is wrong with an answer against its contract, or null when it conforms. */
export function conformanceProblem(
  contract: RouteContract,
  reply: Pick<FastifyReply, 'statusCode' | 'getHeader'>,
  payload: unknown,
): string | null {
  const declared = contract.responses[reply.statusCode];
  if (!declared) return `status ${reply.statusCode} is not declared`;
  const contentType = String(reply.getHeader('content-type') ?? '');
  if (!declared.schema) {
    if (declared.contentType) {
      return contentType.startsWith(declared.contentType)
        ? null
        : `content type ${contentType || 'none'} is not the declared ${declared.contentType}`;
    }
    return payload === undefined || payload === null || payload === ''
      ? null
      : `status ${reply.statusCode} is declared without a body, but one was sent`;
  }
  if (!contentType.startsWith('application/json')) {
    return `content type ${contentType || 'none'} is not JSON`;
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : String(payload));
  } catch {
    return 'the body is not valid JSON';
  }
  return schemaProblem(declared.schema, body);
}
