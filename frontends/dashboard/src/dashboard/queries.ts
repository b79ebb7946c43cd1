// The dashboard's list queries: never stale, kept 5 minutes; a 401 sends the browser to
// /login (requestApi does that). The unread count refetches every 30 s.
import { type ApiResult, DASHBOARD_QUERY_KEYS, requestApi } from '@lsp/ui';
import { useQuery } from '@tanstack/react-query';

export const LIST_QUERY_OPTIONS = { staleTime: 0, gcTime: 5 * 60_000 } as const;
export const UNREAD_REFETCH_MS = 30_000;

/** The lists' items, as their routes declare them in packages/contracts. */
export type SavedSearchItem = ApiResult<'listUserSearches'>[number];
export type ApplicationItem = ApiResult<'listUserApplications'>['applications'][number];
export type DashboardDip = ApiResult<'listUserDips'>['dips'][number];
export type SharedItem = ApiResult<'listSharedWithMe'>['items'][number];

export const searchesKey = DASHBOARD_QUERY_KEYS.searches;
export const applicationsKey = DASHBOARD_QUERY_KEYS.applications;
export const dipsKey = DASHBOARD_QUERY_KEYS.dips;
export const sharedKey = DASHBOARD_QUERY_KEYS.shared;
export const unreadKey = DASHBOARD_QUERY_KEYS.unreadShares;

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
