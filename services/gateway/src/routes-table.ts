/**
 * Which service owns each /api path: the one place a path is routed. Longest prefix wins, so
 * `/api/search-result` goes to search and `/api/shared-deal` to sharing before `/api/shared`.
 */
export type UpstreamName = 'identity' | 'search' | 'dip' | 'sharing' | 'notifications';

export const API_ROUTES: ReadonlyArray<{ prefix: string; upstream: UpstreamName }> = [
  // identity: accounts, sessions, verification, lead details on the user
  { prefix: '/api/auth', upstream: 'identity' },
  { prefix: '/api/login', upstream: 'identity' },
  { prefix: '/api/logout', upstream: 'identity' },
  { prefix: '/api/create-account', upstream: 'identity' },
  { prefix: '/api/verify-email', upstream: 'identity' },
  { prefix: '/api/save-lead-info', upstream: 'identity' },
  // search: the panel, the three searches, leads and saved searches
  { prefix: '/api/development', upstream: 'search' },
  { prefix: '/api/bridging', upstream: 'search' },
  { prefix: '/api/commercial', upstream: 'search' },
  { prefix: '/api/leads', upstream: 'search' },
  { prefix: '/api/search', upstream: 'search' },
  { prefix: '/api/search-result', upstream: 'search' },
  { prefix: '/api/user-searches', upstream: 'search' },
  // dip: online DIPs, PDFs, DIP and loan applications
  { prefix: '/api/online-dip', upstream: 'dip' },
  // sharing inside the DIP paths: the recipients' signed-link view
  { prefix: '/api/online-dip/shared', upstream: 'sharing' },
  { prefix: '/api/dip-applications', upstream: 'dip' },
  { prefix: '/api/applications', upstream: 'dip' },
  // sharing: shares, shared deals, referrals, share-funnel telemetry
  { prefix: '/api/shared', upstream: 'sharing' },
  { prefix: '/api/shared-deal', upstream: 'sharing' },
  { prefix: '/api/referrals', upstream: 'sharing' },
  { prefix: '/api/telemetry', upstream: 'sharing' },
  // notifications: the operations event feed
  { prefix: '/api/ops', upstream: 'notifications' },
];

/** Sharing a DIP (`/api/online-dip/{dipId}/share`) is sharing's, though the rest of the DIP's paths are dip's. */
const DIP_SHARE_PATH = /^\/api\/online-dip\/[^/]+\/share\/?$/;

/** The owning service of a path, matching whole segments only (`/api/search` is not `/api/searches`). */
export function upstreamFor(path: string): UpstreamName | null {
  const pathname = path.split('?')[0] ?? '';
  if (DIP_SHARE_PATH.test(pathname)) return 'sharing';
  let best: { prefix: string; upstream: UpstreamName } | null = null;
  for (const route of API_ROUTES) {
    const matches = pathname === route.prefix || pathname.startsWith(`${route.prefix}/`);
    if (matches && (!best || route.prefix.length > best.prefix.length)) best = route;
  }
  return best?.upstream ?? null;
}
