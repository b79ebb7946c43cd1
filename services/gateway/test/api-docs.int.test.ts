import {
  DOCS_ROUTES,
  DOMAIN_RELEASES,
  PUBLIC_API_ROUTES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT_TYPE,
  isCreatingRoute,
  openApiPathOf,
} from '@lsp/contracts';
import { type TestRedis, leaseRedisDb } from '@lsp/testing';
import { renderApiDocsPage } from '../src/api-docs';
import { type TestGateway, startTestGateway } from './test-gateway';

jest.setTimeout(60_000);

describe('the public API documentation at the gateway', () => {
  let redis: TestRedis;
  let gateway: TestGateway;

  beforeAll(async () => {
    redis = await leaseRedisDb();
    // No upstream runs: the documentation is the gateway's own.
    gateway = await startTestGateway({ redisUrl: redis.url, upstreams: {} });
  });
  afterAll(async () => {
    await gateway?.close();
    await redis?.release();
  });

  it('serves the OpenAPI 3.1 document listing every declared route', async () => {
    const response = await fetch(`${gateway.url}/api/docs/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, Record<string, { operationId: string; responses: object }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toEqual(expect.any(String));
    for (const route of PUBLIC_API_ROUTES) {
      const operation = document.paths[openApiPathOf(route.path)]?.[route.method.toLowerCase()];
      expect([route.path, operation?.operationId]).toEqual([route.path, route.operationId]);
      expect(Object.keys(operation!.responses).length).toBeGreaterThan(0);
    }
  });

  it('says which release of its contracts each domain runs', async () => {
    const document = (await (await fetch(`${gateway.url}/api/docs/openapi.json`)).json()) as {
      info: { 'x-domain-versions': Record<string, { release: number; commit: string }> };
      tags: Array<{ name: string; description?: string; 'x-release'?: { release: number; commit: string } }>;
    };
    expect(Object.keys(DOMAIN_RELEASES).sort()).toEqual([
      'dip',
      'gateway',
      'identity',
      'notifications',
      'search',
      'sharing',
    ]);
    expect(document.info['x-domain-versions']).toEqual(DOMAIN_RELEASES);
    for (const tag of document.tags) {
      const release = DOMAIN_RELEASES[tag.name as keyof typeof DOMAIN_RELEASES]!;
      expect(tag['x-release']).toEqual(release);
      expect(tag.description).toBe(
        `Release ${release.release} (commit ${release.commit.slice(0, 7)}, ${release.releasedAt.slice(0, 10)})`,
      );
    }
    const page = await (await fetch(`${gateway.url}/api/docs`)).text();
    const dip = DOMAIN_RELEASES.dip!;
    expect(page).toContain(`Contracts of dip: Release ${dip.release} (commit ${dip.commit.slice(0, 7)}`);
    expect(page).toContain(`dip release ${dip.release}`);
  });

  it('renders every route as a page that needs no script and stays under the CSP', async () => {
    const response = await fetch(`${gateway.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    // Its one <style> element carries this answer's nonce, the only inline style the policy allows.
    const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]+)'(;|$)/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    const page = await response.text();
    expect(page.match(/<style[^>]*>/g)).toEqual([`<style nonce="${nonce}">`]);
    expect(page).not.toMatch(/ style="/);
    const again = await fetch(`${gateway.url}/api/docs`);
    expect(again.headers.get('content-security-policy')).not.toContain(`'nonce-${nonce}'`);
    expect(page).not.toMatch(/<script/i);
    // Nothing fetched from elsewhere: the only links are this origin's.
    expect(page).not.toMatch(/(src|href)="https?:/i);
    expect(page).toContain(`href="${DOCS_ROUTES[0].path}"`);
    for (const route of PUBLIC_API_ROUTES) {
      expect(page).toContain(`${route.method}</span> <code>${openApiPathOf(route.path)}</code>`);
      expect(page).toContain(`id="${route.operationId}"`);
    }
    expect(page).toContain('Request body');
    expect(page).toContain('Parameters');
  });

  it('declares the API-key bearer scheme on each route a key may call, and Idempotency-Key on creating POSTs', async () => {
    const document = (await (await fetch(`${gateway.url}/api/docs/openapi.json`)).json()) as {
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
      paths: Record<
        string,
        Record<string, { security?: object[]; parameters?: Array<{ name: string; in: string }> }>
      >;
    };
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of PUBLIC_API_ROUTES) {
      const operation = document.paths[openApiPathOf(route.path)]![route.method.toLowerCase()]!;
      const keyed = (operation.security ?? []).filter((requirement) => 'apiKey' in requirement);
      expect([route.operationId, keyed]).toEqual([
        route.operationId,
        route.apiKeyScope ? [{ apiKey: [route.apiKeyScope] }] : [],
      ]);
      const idempotencyHeader = (operation.parameters ?? []).some(
        (p) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
      expect([route.operationId, idempotencyHeader]).toEqual([route.operationId, isCreatingRoute(route)]);
    }
    const page = await (await fetch(`${gateway.url}/api/docs`)).text();
    expect(page).toContain('`Authorization: Bearer &lt;key&gt;` with the `dips:write` scope');
    expect(page).toContain('Send `Idempotency-Key` to make retries safe');
  });

  it("declares each webhook event's signed POST in the OpenAPI 3.1 webhooks section, and shows it", async () => {
    const document = (await (await fetch(`${gateway.url}/api/docs/openapi.json`)).json()) as {
      webhooks: Record<string, { post: { parameters: Array<{ name: string }>; requestBody: object } }>;
    };
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE].sort(),
    );
    for (const event of Object.values(document.webhooks)) {
      expect(event.post.parameters.map((p) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
    const page = await (await fetch(`${gateway.url}/api/docs`)).text();
    expect(page).toContain('<h2 id="webhooks">webhooks</h2>');
    for (const type of WEBHOOK_EVENT_TYPES) {
      expect(page).toContain(`POST</span> <code>your endpoint: ${type}</code>`);
    }
  });

  it('answers its own per-address limit with a 429, not a 500', async () => {
    const limited = await startTestGateway({
      redisUrl: redis.url,
      upstreams: {},
      env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '3600' },
    });
    try {
      expect((await fetch(`${limited.url}/api/docs/openapi.json`)).status).toBe(200);
      for (const path of ['/api/docs/openapi.json', '/api/docs']) {
        const refused = await fetch(`${limited.url}${path}`);
        expect([path, refused.status]).toEqual([path, 429]);
        expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await refused.json()).toMatchObject({ success: false });
      }
    } finally {
      await limited.close();
    }
  });

  it('escapes what it shows', () => {
    const page = renderApiDocsPage({
      info: { title: '<b>t</b>', version: '1' },
      paths: {
        '/api/x': {
          get: { operationId: 'x', summary: '<script>alert(1)</script>', tags: ['x'], responses: {} },
        },
      },
    });
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&lt;b&gt;t&lt;/b&gt;');
  });
});
