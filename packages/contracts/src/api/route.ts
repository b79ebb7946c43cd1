import { z } from 'zod';

/**
 * One public HTTP route, declared once: the services register it, the gateway routes by it, the
 * OpenAPI document describes it, and integration tests check every answer against `responses`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The process that answers the route: a service behind the gateway, or the gateway itself. */
export type RouteOwner = 'identity' | 'search' | 'dip' | 'sharing' | 'notifications' | 'gateway';

/**
 * Who may call: `public` anyone; `session` a signed-in user (401 otherwise); `session-optional`
 * anyone, with more for a signed-in caller; `ops` a signed-in user with the ops role (403 otherwise).
 */
export type RouteAuth = 'public' | 'session' | 'session-optional' | 'ops';

/**
 * What an API key may be allowed to do, each a group of routes: a route declares the one scope a key
 * needs to call it (`apiKeyScope`); a route that declares none is refused to every key (403).
 * `webhooks:*` is granted now so keys made today keep working when the webhook routes arrive.
 */
export const API_KEY_SCOPES = [
  'searches:read',
  'searches:write',
  'dips:read',
  'dips:write',
  'shares:read',
  'shares:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface RouteResponse {
  description: string;
  /** The JSON body; absent when the answer has no body (204) or is not JSON (see `contentType`). */
  schema?: z.ZodType;
  /** Set for answers that are not JSON (a PDF, an event stream, an HTML page). */
  contentType?: string;
}

export interface RouteContract {
  /** Unique, camelCase: the OpenAPI operationId and the generated client's method name. */
  operationId: string;
  method: HttpMethod;
  /** Fastify style, exactly as the service registers it: `/api/online-dip/:dipId/share`. */
  path: string;
  service: RouteOwner;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /**
   * On a `session` route: the caller's email address must be verified. An unverified caller gets a
   * 403 with `EMAIL_NOT_VERIFIED` and `verificationRequired: true` (the page offers to resend the
   * email) before the input is looked at. Set on every owner- or recipient-scoped route: what is
   * shared to an address must reach only someone who proved they hold it.
   */
  verifiedEmail?: boolean;
  /**
   * The scope an API key (`Authorization: Bearer`) needs to call this route; absent, keys are refused
   * (403) and only a browser session may call it. A key acts as its user: every owner check applies.
   */
  apiKeyScope?: ApiKeyScope;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Every status the route answers, by code. */
  responses: Readonly<Record<number, RouteResponse>>;
}

/**
 * Keeps the literal types of a declaration (the method, path and schemas). A route that takes a body
 * also answers what fastify answers before any handler runs, unless the declaration says otherwise:
 * 400 for a body that is not readable JSON, 413 for one over the size limit, 415 for one that is not
 * JSON at all. Every route also answers 503 while its service cannot reach its database. Declaring
 * them here keeps the OpenAPI document and the response checks truthful.
 */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  const refusals =
    contract.method === 'GET' || contract.method === 'DELETE'
      ? STORE_REFUSALS
      : { ...BODY_REFUSALS, ...STORE_REFUSALS };
  return { ...contract, responses: { ...refusals, ...contract.responses } };
}

/** `/api/online-dip/:dipId/share` as OpenAPI writes it: `/api/online-dip/{dipId}/share`. */
export function openApiPathOf(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** A path's segments: `/api/shared/:shareId` → `['api', 'shared', ':shareId']`. */
export function pathSegments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

export const isPathParam = (segment: string) => segment.startsWith(':');

/** True when a concrete path's segments fit a declared path's (a `:param` takes any one segment). */
export function segmentsMatch(declared: readonly string[], concrete: readonly string[]): boolean {
  return (
    declared.length === concrete.length &&
    declared.every((segment, i) => isPathParam(segment) || segment === concrete[i])
  );
}

/**
 * Of two declared paths a concrete path fits, whether `a` is the one it belongs to: the one with a
 * literal where the other has a parameter, earliest (`/api/online-dip/shared/:slug` over
 * `/api/online-dip/:reference`). The gateway routes, and the browser tests' mocks match, by this rule.
 */
export function moreSpecific(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const aParam = isPathParam(a[i]!);
    const bParam = isPathParam(b[i]!);
    if (aParam !== bParam) return !aParam;
  }
  return false;
}

/** What is wrong with `body` against `schema`, as one line (the first five problems), or null. */
export function schemaProblem(schema: z.ZodType, body: unknown): string | null {
  const result = schema.safeParse(body);
  if (result.success) return null;
  return result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}

/** The `:param` names of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
}

/**
 * Every 4xx and 5xx a service answers (service-kit's error handler): `error` is the message to show;
 * `fields` names each invalid field of a 400; other details (e.g. `retryAfterSeconds` of a 429,
 * `requestId` of a 500) ride along.
 */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  retryAfterSeconds: z.number().optional(),
  requestId: z.string().optional(),
  /** Set on the 403 of a route that needs a verified email address: offer to resend the email. */
  verificationRequired: z.literal(true).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** A declared error answer: `errorAnswer('Not signed in')`. */
export function errorAnswer(description: string): RouteResponse {
  return { description, schema: errorResponseSchema };
}

/** The 400 of a route whose params, query or body are validated with the declared schemas. */
export const INVALID_REQUEST = errorAnswer(
  'The request is invalid: `error` is the first problem, `fields` each',
);
export const NOT_SIGNED_IN = errorAnswer('Not signed in');
export const FORBIDDEN = errorAnswer('Signed in, but not allowed');
export { EMAIL_NOT_VERIFIED } from './messages';
/** The 403 of a `verifiedEmail` route to an unverified caller (`EMAIL_NOT_VERIFIED`, `verificationRequired`). */
export const NOT_VERIFIED = errorAnswer(
  'Signed in, but the email address is not verified yet (`verificationRequired`: offer to resend the email)',
);
export const NOT_FOUND = errorAnswer('Not found');
/**
 * The service that owns a fact this answer depends on (a DIP's link, a saved search) could not be
 * asked in time: try again in a moment (docs/decisions/0083-read-your-own-writes-across-services.md).
 */
export const OWNER_UNAVAILABLE = errorAnswer('A service this answer depends on did not answer: try again');
export const TOO_MANY = errorAnswer('Too many attempts: wait `retryAfterSeconds` (also in Retry-After)');

/**
 * What every route answers while the service cannot reach its database (service-kit's error handler):
 * 503 with `Retry-After` and `retryAfterSeconds`. A route that declares its own 503 keeps it.
 */
const STORE_REFUSALS: Readonly<Record<number, RouteResponse>> = {
  503: errorAnswer('The service cannot reach its database: try again after `retryAfterSeconds`'),
};

/** What fastify answers for an unreadable, oversized or non-JSON body, before the route's handler. */
const BODY_REFUSALS: Readonly<Record<number, RouteResponse>> = {
  400: errorAnswer('The body is not readable JSON'),
  413: errorAnswer('The body is larger than the service accepts'),
  415: errorAnswer('The body is not JSON'),
};
