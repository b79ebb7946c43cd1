import {
  DOCS_ROUTES,
  PUBLIC_API_ROUTES,
  API_KEY_SECURITY_SCHEME,
  buildOpenApiDocument,
  isCreatingRoute,
  findRouteContract,
  openApiPathOf,
  pathParamNames,
} from '../src';

type Json = Record<string, unknown>;

describe('the declared public routes', () => {
  it('declare each method and path once, with a unique operationId', () => {
    const keys = PUBLIC_API_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = PUBLIC_API_ROUTES.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(PUBLIC_API_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s lives under /api, answers a success and declares its path parameters',
    (_key, route) => {
      expect(route.path.startsWith('/api/') || route.path === '/api').toBe(true);
      expect(
        Object.keys(route.responses).some((status) => Number(status) >= 200 && Number(status) < 300),
      ).toBe(true);
      const names = pathParamNames(route.path);
      if (names.length > 0) {
        expect(route.params).toBeDefined();
        // Every path parameter is a string in the params schema (what a URL can carry).
        expect(route.params!.safeParse(Object.fromEntries(names.map((n) => [n, '1']))).success).toBe(true);
      } else {
        expect(route.params).toBeUndefined();
      }
    },
  );

  // zod's own words ('Invalid input: expected string, received undefined') are no message for a person:
  // a field left out of a body is refused in the words its form uses for it.
  const ZODS_DEFAULT_WORDS = /^Invalid (input|option)\b|^Too (small|big)\b/;
  // Share-funnel telemetry answers 204 whatever it is sent: its refusals are never shown.
  const SILENT_ROUTES = new Set(['recordShareFunnelEvent']);
  it.each(
    PUBLIC_API_ROUTES.filter((r) => r.body && !SILENT_ROUTES.has(r.operationId)).map(
      (r) => [r.operationId, r] as const,
    ),
  )('%s refuses each field missing from an empty body in its own words', (_id, route) => {
    const parsed = route.body!.safeParse({});
    const defaults = parsed.success
      ? []
      : parsed.error.issues
          .filter((issue) => ZODS_DEFAULT_WORDS.test(issue.message))
          .map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(defaults).toEqual([]);
  });

  it('are found by method and fastify path', () => {
    expect(findRouteContract('GET', '/api/shared/dips/:id')?.operationId).toBe('getSharedDip');
    expect(findRouteContract('get', '/api/auth/me')?.service).toBe('identity');
    expect(findRouteContract('DELETE', '/api/auth/me')).toBeUndefined();
  });

  it('write paths in OpenAPI style on demand', () => {
    expect(openApiPathOf('/api/online-dip/create/:searchId/:loanIndex')).toBe(
      '/api/online-dip/create/{searchId}/{loanIndex}',
    );
  });
});

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument(PUBLIC_API_ROUTES, { title: 'API', version: '1.0.0' });
  const paths = document.paths as Record<string, Record<string, Json>>;

  it('is OpenAPI 3.1 with info, paths and the session cookie scheme, and survives JSON', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'API', version: '1.0.0' });
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    const schemes = (document.components as Json).securitySchemes as Json;
    expect(schemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
  });

  it('lists every declared route, and nothing else', () => {
    const listed = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(
      PUBLIC_API_ROUTES.map((r) => `${r.method} ${openApiPathOf(r.path)}`).sort(),
    );
  });

  it.each(PUBLIC_API_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: operation, parameters, body and responses are well formed',
    (_key, route) => {
      const operation = paths[openApiPathOf(route.path)]![route.method.toLowerCase()]!;
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.summary).toBe(route.summary);
      const parameters = (operation.parameters ?? []) as Json[];
      for (const parameter of parameters) {
        expect(['path', 'query', 'header']).toContain(parameter.in);
        expect(typeof parameter.name).toBe('string');
        expect(typeof parameter.schema).toBe('object');
        if (parameter.in === 'path') expect(parameter.required).toBe(true);
      }
      expect(parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(
        pathParamNames(route.path),
      );
      // The one header parameter: Idempotency-Key, on exactly the creating POSTs.
      expect(parameters.filter((p) => p.in === 'header').map((p) => p.name)).toEqual(
        isCreatingRoute(route) ? ['Idempotency-Key'] : [],
      );
      if (route.body) {
        const body = operation.requestBody as Json;
        expect(((body.content as Json)['application/json'] as Json).schema).toEqual(expect.any(Object));
      } else {
        expect(operation.requestBody).toBeUndefined();
      }
      const responses = operation.responses as Record<string, Json>;
      // The declared answers, and the gateway's own on keyed (401, 403, 429) and creating (409, 422) routes.
      const gatewayAnswers = [
        ...(route.apiKeyScope ? ['401', '403', '429'] : []),
        ...(isCreatingRoute(route) ? ['409', '422'] : []),
      ];
      expect(Object.keys(responses).sort()).toEqual(
        [...new Set([...Object.keys(route.responses), ...gatewayAnswers])].sort(),
      );
      for (const [status, response] of Object.entries(responses)) {
        expect(status).toMatch(/^[1-5]\d\d$/);
        expect(typeof response.description).toBe('string');
        // The gateway's own answers are error bodies.
        const declared = route.responses[Number(status)] ?? { schema: true };
        if (declared.schema) {
          const schema = ((response.content as Json)['application/json'] as Json).schema as Json;
          expect(schema.$schema).toBeUndefined();
          expect(schema.type ?? schema.anyOf ?? schema.allOf ?? schema.oneOf).toBeDefined();
        }
      }
    },
  );

  it('declares the API-key bearer scheme on exactly the routes a key may call, with the scope each needs', () => {
    const schemes = (document.components as Json).securitySchemes as Json;
    expect(schemes[API_KEY_SECURITY_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
    const keyed = PUBLIC_API_ROUTES.filter((route) => route.apiKeyScope);
    expect(keyed.map((route) => route.operationId)).toEqual(
      expect.arrayContaining(['developmentSearch', 'saveSearch', 'createDip', 'downloadDipPdf', 'shareDip']),
    );
    for (const route of PUBLIC_API_ROUTES) {
      const operation = paths[openApiPathOf(route.path)]![route.method.toLowerCase()]!;
      const security = (operation.security ?? []) as Json[];
      const bearer = security.find((requirement) => API_KEY_SECURITY_SCHEME in requirement);
      expect([route.operationId, bearer]).toEqual([
        route.operationId,
        route.apiKeyScope ? { [API_KEY_SECURITY_SCHEME]: [route.apiKeyScope] } : undefined,
      ]);
      // A keyed route still takes the session cookie, and an optional session stays optional.
      if (route.apiKeyScope) expect(security).toContainEqual({ sessionCookie: [] });
      if (route.apiKeyScope && route.auth === 'session-optional') expect(security).toContainEqual({});
    }
    expect(paths['/api/api-keys']!.post!.security).toEqual([{ sessionCookie: [] }]);
  });

  it('documents an error answer with its fields', () => {
    const login = paths['/api/login']!.post!;
    const unauthorized = (login.responses as Record<string, Json>)['401']!;
    const schema = ((unauthorized.content as Json)['application/json'] as Json).schema as Json;
    expect(schema).toMatchObject({
      type: 'object',
      properties: { success: { const: false }, error: { type: 'string' } },
      required: expect.arrayContaining(['success', 'error']),
    });
  });

  it('documents request bodies as the caller sends them and query parameters one by one', () => {
    const register = paths['/api/auth/register']!.post!;
    const body = (((register.requestBody as Json).content as Json)['application/json'] as Json)
      .schema as Json;
    expect(Object.keys(body.properties as Json)).toEqual(
      expect.arrayContaining(['name', 'email', 'password', 'refDealId', 'fromSharedLink']),
    );
    const verify = paths['/api/verify-email']!.get!;
    expect(verify.parameters).toEqual([
      expect.objectContaining({ name: 'token', in: 'query', required: true }),
    ]);
  });

  it('includes the documentation routes themselves', () => {
    for (const route of DOCS_ROUTES) expect(paths[route.path]?.get).toBeDefined();
  });
});
