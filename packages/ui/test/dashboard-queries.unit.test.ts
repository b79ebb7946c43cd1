import { QueryClient } from '@tanstack/react-query';
import { DASHBOARD_QUERY_KEYS, applicationSubmitted } from '../src/app/dashboard-queries';
import { STORAGE_KEYS } from '@lsp/contracts';

describe('after an application is submitted', () => {
  const realWindow = (global as { window?: unknown }).window;
  afterEach(() => {
    (global as { window?: unknown }).window = realWindow;
  });

  it('forgets the pending application and the chosen loan, and refetches only that user’s lists', async () => {
    const stored = new Map<string, string>([
      [STORAGE_KEYS.pendingApplication, '{}'],
      [STORAGE_KEYS.selectedLoan, '{}'],
      [STORAGE_KEYS.currentUser, '{"id":"u1"}'],
    ]);
    (global as { window?: unknown }).window = {
      localStorage: { removeItem: (key: string) => stored.delete(key) },
    };
    const client = new QueryClient();
    const invalidated: unknown[] = [];
    client.invalidateQueries = (async (filters: { queryKey: unknown }) => {
      invalidated.push(filters.queryKey);
    }) as QueryClient['invalidateQueries'];

    await applicationSubmitted(client, 'u1');

    expect([...stored.keys()]).toEqual([STORAGE_KEYS.currentUser]);
    expect(invalidated).toEqual([
      DASHBOARD_QUERY_KEYS.applications('u1'),
      DASHBOARD_QUERY_KEYS.searches('u1'),
    ]);
    expect(DASHBOARD_QUERY_KEYS.searches('u1')).toEqual(['/api/user-searches', 'u1']);
  });
});
