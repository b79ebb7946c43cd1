// The one way the browser calls the API (spec §7): relative URLs through the gateway, cookies
// included, JSON both ways. A 401 anywhere sends the browser to /login with `next` holding where it
// was, so the user comes back after signing in.
import type { QueryFunction } from '@tanstack/react-query';
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

function init(method: string, body?: unknown): RequestInit {
  return {
    method,
    credentials: 'include',
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

/**
 * The generic helper: 401 goes to login, any other non-OK answer throws 'API request failed: {status}'.
 * Returns the parsed JSON body.
 */
export async function apiRequest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, init(method, body));
  if (res.status === 401) {
    redirectToLogin();
    throw new ApiError('API request failed: 401', 401);
  }
  if (!res.ok) throw new ApiError(`API request failed: ${res.status}`, res.status, await readJson(res));
  return (await readJson(res)) as T;
}

export interface ApiAnswer<T> {
  ok: boolean;
  status: number;
  data: T | null;
}

/**
 * For calls whose failure the page explains itself (login, register, verification): never
 * redirects, never throws on an HTTP status, returns the status and the parsed body.
 * Network failures still throw, so the page can say 'Network error'.
 */
export async function apiSend<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const res = await fetch(path, init(method, body));
  const data = (await readJson(res)) as T | null;
  return { ok: res.ok, status: res.status, data: data && typeof data === 'object' ? data : null };
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default query function: joins the query key's segments with '/' into a GET path
 * (`['/api/user-searches', userId]` → `/api/user-searches/42`). A 401 gives null when the caller
 * asks for that, otherwise goes to login; other failures throw '{status}: {body text or status text}'.
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.map(String).join('/'), {
      credentials: 'include',
      signal,
      headers: { Accept: 'application/json' },
    });
    if (res.status === 401) {
      if (on401 === 'returnNull') return null;
      redirectToLogin();
    }
    if (!res.ok) {
      const text = (await res.text()) || res.statusText;
      throw new ApiError(`${res.status}: ${text}`, res.status);
    }
    return (await res.json()) as T;
  };
}
