import { z } from 'zod';
import { type JsonSchema, jsonSchemaOf } from '../compat/json-schema';
import { SESSION_COOKIE } from '../session';
import { WEBHOOK_PAYLOAD_DATA, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_TIMEOUT_MS } from '../webhooks/http';
import type { DomainReleaseInfo } from './domain-releases';
import {
  type RouteContract,
  type RouteOwner,
  errorResponseSchema,
  openApiPathOf,
  pathParamNames,
} from './route';

/**
 * The OpenAPI 3.1 document of declared routes. JSON Schemas come from zod (`z.toJSONSchema`): request
 * parts as the caller sends them (`io: 'input'`), answers as the service sends them (`io: 'output'`).
 */

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** The properties of an object schema, with which of them are required (params and query). */
function objectProperties(
  schema: z.ZodType | undefined,
): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    schema: property,
    required: required.has(name),
  }));
}

const AUTH_TEXT: Record<RouteContract['auth'], string> = {
  public: 'No sign-in needed.',
  'session-optional': 'No sign-in needed; a signed-in caller is recognised by the session cookie.',
  session: 'Needs a signed-in session (the session cookie).',
  ops: 'Needs a signed-in session of an account with the ops role.',
};

/**
 * A creating POST: one whose declared answers include a 201. The gateway honours `Idempotency-Key`
 * on exactly these, and the document declares the header on them.
 */
export function isCreatingRoute(route: Pick<RouteContract, 'method' | 'responses'>): boolean {
  return route.method === 'POST' && 201 in route.responses;
}

/** The security scheme of API keys (`Authorization: Bearer <key>`), by its name in the document. */
export const API_KEY_SECURITY_SCHEME = 'apiKey';

const apiKeyText = (scope: string) =>
  `A broker system may call it with an API key instead of a session: \`Authorization: Bearer <key>\` ` +
  `with the \`${scope}\` scope (no cookie, no cross-site checks). A bad, revoked or expired key is 401; ` +
  'a key without the scope 403; each key has its own allowance (429 with `Retry-After`, and the ' +
  '`RateLimit-Policy` and `RateLimit` headers on every keyed answer).';

const IDEMPOTENCY_TEXT =
  'Send `Idempotency-Key` to make retries safe (a signed-in caller, by session or API key; ignored from anonymous callers): the same key with the same body answers the first ' +
  'answer again (with `Idempotent-Replayed: true`) and creates nothing twice; the same key with another ' +
  'body is 422; while the first request still runs, 409. Kept 24 hours per user.';

/** The gateway's own answers on a keyed or idempotent route, where the route declares none of its own. */
const GATEWAY_ANSWERS = {
  apiKey: {
    401: 'Not signed in, or the API key is unknown, revoked or expired',
    403: 'Signed in, but not allowed (or the API key lacks the scope)',
    429: 'Too many requests with this API key: wait `Retry-After` seconds',
  },
  idempotency: {
    409: 'A request with this Idempotency-Key is still running: retry in a moment',
    422: 'This Idempotency-Key was used with a different request',
  },
} as const;

const VERIFIED_TEXT =
  'Needs a verified email address: an unverified caller gets a 403 with `verificationRequired: true`.';

const needsSessionOf = (route: RouteContract) => route.auth === 'session' || route.auth === 'ops';

function operationOf(route: RouteContract): JsonSchema {
  const declaredPathParams = new Map(objectProperties(route.params).map((p) => [p.name, p]));
  const parameters = [
    // Every `:param` of the path is a required path parameter, declared in `params` or not.
    ...pathParamNames(route.path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: declaredPathParams.get(name)?.schema ?? { type: 'string' },
    })),
    ...objectProperties(route.query).map((p) => ({
      name: p.name,
      in: 'query',
      required: p.required,
      schema: p.schema,
    })),
    ...(isCreatingRoute(route)
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: IDEMPOTENCY_TEXT,
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
          },
        ]
      : []),
  ];
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => {
      const content = response.schema
        ? { 'application/json': { schema: jsonSchemaOf(response.schema, 'output') } }
        : response.contentType
          ? {
              [response.contentType]: {
                schema:
                  response.contentType === 'application/pdf'
                    ? { type: 'string', contentMediaType: 'application/pdf' }
                    : { type: 'string' },
              },
            }
          : undefined;
      return [status, { description: response.description, ...(content ? { content } : {}) }];
    }),
  );
  const gatewayAnswers = {
    ...(route.apiKeyScope ? GATEWAY_ANSWERS.apiKey : {}),
    ...(isCreatingRoute(route) ? GATEWAY_ANSWERS.idempotency : {}),
  };
  for (const [status, description] of Object.entries(gatewayAnswers)) {
    responses[status] ??= {
      description,
      content: { 'application/json': { schema: jsonSchemaOf(errorResponseSchema, 'output') } },
    };
  }
  const sessionSecurity = needsSessionOf(route) ? [{ sessionCookie: [] }] : [{}, { sessionCookie: [] }];
  const security = route.apiKeyScope
    ? [...sessionSecurity, { [API_KEY_SECURITY_SCHEME]: [route.apiKeyScope] }]
    : needsSessionOf(route)
      ? sessionSecurity
      : route.auth === 'public'
        ? []
        : undefined;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [
      route.description,
      AUTH_TEXT[route.auth],
      route.verifiedEmail ? VERIFIED_TEXT : undefined,
      route.apiKeyScope ? apiKeyText(route.apiKeyScope) : undefined,
      isCreatingRoute(route) ? IDEMPOTENCY_TEXT : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: [route.service],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses,
    ...(security ? { security } : {}),
    'x-auth': route.auth,
    ...(route.apiKeyScope ? { 'x-api-key-scope': route.apiKeyScope } : {}),
    ...(route.verifiedEmail ? { 'x-verified-email': true } : {}),
  };
}

/** A domain's release as its tag says it: `Release 3 (commit 0961bbc, 2026-11-28)`. */
export const releaseText = (release: DomainReleaseInfo) =>
  `Release ${release.release} (commit ${release.commit.slice(0, 7)}, ${release.releasedAt.slice(0, 10)})`;

const WEBHOOK_HEADERS = [
  ['webhook-id', 'The event id: the same on every try of one delivery (drop repeats by it)'],
  ['webhook-timestamp', 'When this try was sent, in unix seconds (refuse one far from your clock)'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the ' +
      "base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks)",
  ],
] as const;

/** The OpenAPI 3.1 `webhooks` entry of one event: the signed POST an endpoint receives. */
function webhookOperationOf(type: string, event: { summary: string; schema: z.ZodType }): JsonSchema {
  const body = z.object({ type: z.literal(type), timestamp: z.string(), data: event.schema });
  return {
    post: {
      operationId: `webhook_${type.replace(/[^A-Za-z0-9]+/g, '_')}`,
      summary: event.summary,
      description:
        'Sent to each enabled endpoint of the user that subscribed to it, signed per Standard Webhooks. ' +
        `A 2xx within ${WEBHOOK_TIMEOUT_MS / 1000} seconds is a delivery; anything else (a redirect too) ` +
        `is tried again ${WEBHOOK_RETRY_DELAYS_MS.length} times with growing delays for about a day, after ` +
        'which the endpoint is disabled and its owner emailed.',
      tags: ['webhooks'],
      parameters: WEBHOOK_HEADERS.map(([name, description]) => ({
        name,
        in: 'header',
        required: true,
        description,
        schema: { type: 'string' },
      })),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchemaOf(body, 'output') } },
      },
      responses: { '2XX': { description: 'Received' } },
    },
  };
}

/**
 * The document; with `domainReleases`, the release of each domain's contracts this tree runs goes in
 * `info['x-domain-versions']` and in each tag (`x-release`, and its description). Each webhook event's
 * signed POST goes in the OpenAPI 3.1 `webhooks` section.
 */
export function buildOpenApiDocument(
  routes: readonly RouteContract[],
  info: OpenApiInfo,
  domainReleases: Readonly<Partial<Record<RouteOwner, DomainReleaseInfo>>> = {},
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = openApiPathOf(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route);
  }
  const tags = [...new Set(routes.map((route) => route.service))].map((name) => {
    const release = domainReleases[name];
    return release ? { name, description: releaseText(release), 'x-release': release } : { name };
  });
  return {
    openapi: '3.1.0',
    info: Object.keys(domainReleases).length > 0 ? { ...info, 'x-domain-versions': domainReleases } : info,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags,
    paths,
    webhooks: Object.fromEntries(
      Object.entries(WEBHOOK_PAYLOAD_DATA).map(([type, event]) => [type, webhookOperationOf(type, event)]),
    ),
    components: {
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            'Set by POST /api/login; sent back by the browser (or any HTTP client keeping cookies).',
        },
        [API_KEY_SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'lsp_<id>_<secret>',
          description:
            'An API key made with POST /api/api-keys (from a signed-in session, shown once), sent as ' +
            '`Authorization: Bearer <key>`. Its scopes are the OAuth-style scopes each operation lists.',
        },
      },
    },
  };
}
