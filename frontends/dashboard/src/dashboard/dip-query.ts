// DIP queries: stale after 60 s, kept 10 minutes, retried at most twice with the delay
// doubling from 1 s (capped at 30 s), never retried for 401/403/404/410.
import { ApiError, type ApiInput, type ApiResult, type RequestOptions, requestApi } from '@lsp/ui';
import { useQuery } from '@tanstack/react-query';

const NOT_RETRIED = new Set([401, 403, 404, 410]);

export const DIP_QUERY_OPTIONS = {
  staleTime: 60_000,
  gcTime: 10 * 60_000,
  retry: (failureCount: number, error: unknown) =>
    !(error instanceof ApiError && NOT_RETRIED.has(error.status)) && failureCount < 2,
  retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
} as const;

/** The DIP views: the owner's DIP or online DIP page, a DIP shared with the caller, a signed share link. */
export type DipView = 'getDip' | 'getSharedDip' | 'openSharedDip';

/**
 * One DIP view, as a query: throws ApiError with the status and never redirects (the views explain
 * a 401 themselves). `input` null waits (not signed in yet, the dialog closed).
 */
export function useDipDetail<Id extends DipView>(view: Id, input: ApiInput<Id> | null) {
  return useQuery({
    queryKey: ['dip-detail', view, input],
    enabled: input !== null,
    queryFn: ({ signal }) =>
      // A generic wrapper: the per-operation signature of requestApi is checked at its callers.
      (requestApi as (id: Id, input: ApiInput<Id>, options: RequestOptions) => Promise<ApiResult<Id>>)(
        view,
        input as ApiInput<Id>,
        { signal, on401: 'throw' },
      ),
    ...DIP_QUERY_OPTIONS,
  });
}

/** A short id the user can quote to support, shown on every error panel. */
export function shortCorrelationId(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
