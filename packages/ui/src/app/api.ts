// The one way the browser calls the API: relative URLs through the gateway, cookies
// included, JSON both ways. A 401 anywhere sends the browser to /login with `next` holding where it
// was, so the user comes back after signing in.
//
// Every call names a route declared in packages/contracts by its operation id. The inputs (path
// parameters, query, body) and the answers are typed from that declaration's schemas through
// type-only imports, and the method and path come from the table generated from it
// (api-routes.generated.ts), so no schema is bundled and no call can name a route that does not exist.
import type { ErrorResponse, PublicRouteOf } from '@lsp/contracts';
import type { z } from 'zod';
import { API_ROUTES } from './api-routes.generated';
import { journeyHeaders } from './journey';

/** `/login?next=<path and query, encoded>` for the page the browser is on. */
export function loginUrlFor(location: Pick<Location, 'pathname' | 'search'> = window.location): string {
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

export function redirectToLogin(): void {
  // Already on the login page: sending it to itself would lose its own `next`.
  if (window.location.pathname === '/login') return;
  window.location.assign(loginUrlFor());
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function init(method: string, body: unknown, { signal, keepalive }: CallOptions): RequestInit {
  return {
    method,
    credentials: 'include',
    signal,
    keepalive,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...journeyHeaders(method),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export type OperationId = keyof typeof API_ROUTES;

type Part<C, K extends 'params' | 'query' | 'body'> = [C] extends [{ [P in K]: infer S extends z.ZodType }]
  ? { [P in K]: z.input<S> }
  : { [P in K]?: undefined };

/** Per route (distributed once, so the union over every route stays one member per route). */
type InputOf<C> = C extends unknown ? Part<C, 'params'> & Part<C, 'query'> & Part<C, 'body'> : never;

/** What a call sends: the declared path parameters, query and body, each only where declared. */
export type ApiInput<Id extends OperationId> = InputOf<PublicRouteOf<Id>>;

type Responses<Id extends OperationId> = PublicRouteOf<Id>['responses'];
type BodyOf<R> = R extends { schema: infer S extends z.ZodType } ? z.output<S> : null;
type SuccessStatus = 200 | 201 | 202 | 204;

/** The body of a declared 2xx answer. */
export type ApiResult<Id extends OperationId> = {
  [K in keyof Responses<Id>]: K extends SuccessStatus ? BodyOf<Responses<Id>[K]> : never;
}[keyof Responses<Id>];

/**
 * The body of a failed answer: one the route declares, or the platform's error answer that any route
 * can give (the gateway's 429, 502, 503 and 504, a 500): `{ success: false, error }` either way.
 */
export type ApiFailure<Id extends OperationId> =
  | {
      [K in keyof Responses<Id>]: K extends SuccessStatus ? never : BodyOf<Responses<Id>[K]>;
    }[keyof Responses<Id>]
  | ErrorResponse;

/** The optional second argument when an operation declares no required input, required otherwise. */
type InputArgs<Id extends OperationId> =
  object extends ApiInput<Id> ? [input?: ApiInput<Id>] : [input: ApiInput<Id>];

export interface CallOptions {
  signal?: AbortSignal;
  /** Lets the request outlive the page (telemetry sent as the user leaves). */
  keepalive?: boolean;
}

/**
 * The URL of an operation: `apiPath('getDip', { params: { reference } })` → `/api/online-dip/<reference>`,
 * each parameter URL-encoded, the query (undefined and null values left out) appended.
 */
export function apiPath<Id extends OperationId>(id: Id, ...input: InputArgs<Id>): string;
export function apiPath(id: OperationId, input?: SentInput): string {
  return pathOf(id, input);
}

/** A call's input as sent, whatever the operation (the typed signatures above check it). */
interface SentInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

function pathOf(id: OperationId, input: SentInput = {}): string {
  const { params, query } = input;
  const path = API_ROUTES[id].path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${id}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null) search.append(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

async function send(id: OperationId, input: SentInput | undefined, options: CallOptions): Promise<Response> {
  return fetch(pathOf(id, input), init(API_ROUTES[id].method, input?.body, options));
}

/** The error a failed call throws: the server's `error` when it gave one, otherwise the status. */
function failure(status: number, body: unknown): ApiError {
  const said = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  return new ApiError(
    typeof said === 'string' && said ? said : `API request failed: ${status}`,
    status,
    body,
  );
}

export type UnauthorizedBehavior = 'login' | 'throw';

export interface RequestOptions extends CallOptions {
  /** 'login' (the default) sends the browser to login on a 401; 'throw' leaves it to the caller. */
  on401?: UnauthorizedBehavior;
}

/**
 * Calls an operation and resolves its declared 2xx body. A 401 sends the browser to login (unless
 * `on401: 'throw'`, for views that explain it themselves) and throws; any other non-2xx throws an
 * ApiError carrying the status and the body.
 */
export function requestApi<Id extends OperationId>(
  id: Id,
  ...args: [...InputArgs<Id>, RequestOptions?]
): Promise<ApiResult<Id>>;
export async function requestApi(
  id: OperationId,
  input?: SentInput,
  options: RequestOptions = {},
): Promise<unknown> {
  const res = await send(id, input, options);
  const body = await readJson(res);
  if (res.status === 401 && options.on401 !== 'throw') redirectToLogin();
  if (!res.ok) throw failure(res.status, body);
  return body;
}

export type ApiAnswer<Id extends OperationId> =
  | { ok: true; status: number; data: ApiResult<Id> }
  | { ok: false; status: number; data: ApiFailure<Id> | null };

/**
 * For calls whose failure the page explains itself (login, register, verification, the dashboard's
 * actions): never redirects, never throws on an HTTP status, resolves the status and the body.
 * Network failures still throw, so the page can say 'Network error'.
 */
export function callApi<Id extends OperationId>(
  id: Id,
  ...args: [...InputArgs<Id>, CallOptions?]
): Promise<ApiAnswer<Id>>;
export async function callApi(
  id: OperationId,
  input?: SentInput,
  options: CallOptions = {},
): Promise<{ ok: boolean; status: number; data: unknown }> {
  const res = await send(id, input, options);
  const body = await readJson(res);
  return { ok: res.ok, status: res.status, data: body && typeof body === 'object' ? body : null };
}
