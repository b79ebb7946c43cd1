// The keys of the dashboard's list queries, shared by both remotes: the search remote saves searches
// and submits applications, and the dashboard must ask for its lists again afterwards. Both remotes
// use the shell's one QueryClient, so a key written twice would be a coupling that breaks silently.
import type { QueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@lsp/contracts/src/common/constants';

export const DASHBOARD_QUERY_KEYS = {
  /** Every user's saved searches (a prefix of `searches(userId)`). */
  allSearches: ['/api/user-searches'] as const,
  searches: (userId: string) => ['/api/user-searches', userId] as const,
  applications: (userId: string) => ['/api/applications', userId] as const,
  dips: (userId: string) => ['/api/online-dip/user', userId] as const,
  shared: ['/api/shared'] as const,
  unreadShares: ['/api/shared/unread-count'] as const,
};

/**
 * What both application forms (the DIP application wizard and 'Continue application') do once the
 * server has accepted the application: forget the pending application and the chosen loan, and have
 * the dashboard ask again for the applications and the searches (whose status the application moved).
 */
export async function applicationSubmitted(queryClient: QueryClient, userId: string): Promise<void> {
  try {
    window.localStorage.removeItem(STORAGE_KEYS.pendingApplication);
    window.localStorage.removeItem(STORAGE_KEYS.selectedLoan);
  } catch {
    // Storage can be unavailable (private mode); there is then nothing stored to forget.
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEYS.applications(userId) }),
    queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEYS.searches(userId) }),
  ]);
}
