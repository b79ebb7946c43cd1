import { QueryClient } from '@tanstack/react-query';

/**
 * Queries do not retry, do not refetch on focus, do not poll and never go stale unless a
 * query says otherwise (the unread count sets its own 30-second refetch). Every query names its own
 * `queryFn`, a typed call of a declared operation (./api.ts).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
