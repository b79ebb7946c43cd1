import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

/**
 * Spec §7: queries do not retry, do not refetch on focus, do not poll and never go stale unless a
 * query says otherwise (the unread count sets its own 30-second refetch).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
