// The dashboard's list queries (spec §9): never stale, kept 5 minutes; a 401 sends the browser to
// /login (the default query function does that). The unread count refetches every 30 s.
import type { LoanType } from '@lsp/contracts';
import { useQuery } from '@tanstack/react-query';

export const LIST_QUERY_OPTIONS = { staleTime: 0, gcTime: 5 * 60_000 } as const;
export const UNREAD_REFETCH_MS = 30_000;

export interface SavedSearchItem {
  id: string;
  loan_type: string;
  project_name: string | null;
  created_at: string;
  application_status?: string | null;
  result_count?: number | null;
  search_data?: Record<string, unknown> | null;
  api_response?: unknown;
}

export interface ApplicationItem {
  id: string;
  kind?: 'dip-application' | 'loan-application';
  property_address: string | null;
  loan_amount: number | null;
  loan_type?: LoanType | null;
  status: string;
  created_at: string;
}

export interface DashboardDip {
  id: string;
  quoteCode: string;
  isExpired: boolean;
  createdAt: string;
  expiresAt: string;
  snapshot: {
    propertyAddress?: string | null;
    projectName?: string | null;
    searchData?: Record<string, unknown> | null;
    netLoan?: number | null;
    interestRate?: number | null;
    lenderName?: string | null;
    loanType?: string | null;
  };
}

export interface SharedItem {
  shareId: string;
  shareSlug: string;
  dipId: string;
  isViewed: boolean;
  isExpired: boolean;
  expiresAt: string;
  sharedBy?: string | null;
  sharedAt: string;
  message?: string | null;
  quoteCode: string;
  snapshot: DashboardDip['snapshot'];
}

/** Lists may come bare or wrapped ({items}, {dips}, {shares}, {applications}, {searches}). */
export function listOf<T>(body: unknown, ...keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    for (const key of [...keys, 'items', 'data']) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as T[];
    }
  }
  return [];
}

export const searchesKey = (userId: string) => ['/api/user-searches', userId] as const;
export const applicationsKey = (userId: string) => ['/api/applications', userId] as const;
export const dipsKey = (userId: string) => ['/api/online-dip/user', userId] as const;
export const sharedKey = ['/api/shared'] as const;
export const unreadKey = ['/api/shared/unread-count'] as const;

export function useSearches(userId: string) {
  return useQuery({
    queryKey: searchesKey(userId),
    ...LIST_QUERY_OPTIONS,
    select: (body: unknown) => listOf<SavedSearchItem>(body, 'searches'),
  });
}

export function useApplications(userId: string) {
  return useQuery({
    queryKey: applicationsKey(userId),
    ...LIST_QUERY_OPTIONS,
    select: (body: unknown) => listOf<ApplicationItem>(body, 'applications'),
  });
}

export function useDips(userId: string) {
  return useQuery({
    queryKey: dipsKey(userId),
    ...LIST_QUERY_OPTIONS,
    select: (body: unknown) => listOf<DashboardDip>(body, 'dips'),
  });
}

export function useShared() {
  return useQuery({
    queryKey: sharedKey,
    ...LIST_QUERY_OPTIONS,
    select: (body: unknown) => listOf<SharedItem>(body, 'shares', 'shared'),
  });
}

export function useUnreadCount() {
  return useQuery({
    queryKey: unreadKey,
    ...LIST_QUERY_OPTIONS,
    refetchInterval: UNREAD_REFETCH_MS,
    select: (body: unknown) => {
      const count = body && typeof body === 'object' ? (body as { count?: unknown }).count : body;
      return typeof count === 'number' ? count : 0;
    },
  });
}
