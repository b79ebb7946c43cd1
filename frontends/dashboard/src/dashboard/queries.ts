// The dashboard's list queries (spec §9): never stale, kept 5 minutes; a 401 sends the browser to
// /login (requestApi does that). The unread count refetches every 30 s.
import { type ApiResult, requestApi } from '@lsp/ui';
import { useQuery } from '@tanstack/react-query';

export const LIST_QUERY_OPTIONS = { staleTime: 0, gcTime: 5 * 60_000 } as const;
export const UNREAD_REFETCH_MS = 30_000;

/** The lists' items, as their routes declare them in packages/contracts. */
export type SavedSearchItem = ApiResult<'listUserSearches'>[number];
export type ApplicationItem = ApiResult<'listUserApplications'>['applications'][number];
export type DashboardDip = ApiResult<'listUserDips'>['dips'][number];
export type SharedItem = ApiResult<'listSharedWithMe'>['items'][number];

export const searchesKey = (userId: string) => ['/api/user-searches', userId] as const;
export const applicationsKey = (userId: string) => ['/api/applications', userId] as const;
export const dipsKey = (userId: string) => ['/api/online-dip/user', userId] as const;
export const sharedKey = ['/api/shared'] as const;
export const unreadKey = ['/api/shared/unread-count'] as const;

export function useSearches(userId: string) {
  return useQuery({
    queryKey: searchesKey(userId),
    queryFn: ({ signal }) => requestApi('listUserSearches', { params: { userId } }, { signal }),
    ...LIST_QUERY_OPTIONS,
  });
}

export function useApplications(userId: string) {
  return useQuery({
    queryKey: applicationsKey(userId),
    queryFn: ({ signal }) => requestApi('listUserApplications', { params: { userId } }, { signal }),
    ...LIST_QUERY_OPTIONS,
    select: (body) => body.applications,
  });
}

export function useDips(userId: string) {
  return useQuery({
    queryKey: dipsKey(userId),
    queryFn: ({ signal }) => requestApi('listUserDips', { params: { userId } }, { signal }),
    ...LIST_QUERY_OPTIONS,
    select: (body) => body.dips,
  });
}

export function useShared() {
  return useQuery({
    queryKey: sharedKey,
    queryFn: ({ signal }) => requestApi('listSharedWithMe', {}, { signal }),
    ...LIST_QUERY_OPTIONS,
    select: (body) => body.items,
  });
}

export function useUnreadCount() {
  return useQuery({
    queryKey: unreadKey,
    queryFn: ({ signal }) => requestApi('countUnreadShares', {}, { signal }),
    ...LIST_QUERY_OPTIONS,
    refetchInterval: UNREAD_REFETCH_MS,
    select: (body) => body.count,
  });
}
