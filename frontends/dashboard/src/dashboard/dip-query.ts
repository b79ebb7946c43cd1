// DIP queries (spec §9): stale after 60 s, kept 10 minutes, retried at most twice with the delay
// doubling from 1 s (capped at 30 s), never retried for 401/403/404/410.
import { ApiError } from '@lsp/ui';
import { useQuery } from '@tanstack/react-query';

const NOT_RETRIED = new Set([401, 403, 404, 410]);

export const DIP_QUERY_OPTIONS = {
  staleTime: 60_000,
  gcTime: 10 * 60_000,
  retry: (failureCount: number, error: unknown) =>
    !(error instanceof ApiError && NOT_RETRIED.has(error.status)) && failureCount < 2,
  retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
} as const;

/** A GET that throws ApiError with the status (and never redirects: the views explain a 401 themselves). */
export async function fetchDipJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { credentials: 'include', signal, headers: { Accept: 'application/json' } });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) throw new ApiError(`API request failed: ${res.status}`, res.status, body);
  return body as T;
}

export function useDipDetail<T>(path: string | null) {
  return useQuery({
    queryKey: ['dip-detail', path],
    enabled: path !== null,
    queryFn: ({ signal }) => fetchDipJson<T>(path as string, signal),
    ...DIP_QUERY_OPTIONS,
  });
}

/** A short id the user can quote to support, shown on every error panel. */
export function shortCorrelationId(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
