// Where the browser goes after signing in ("Login redirect order").

export interface LoginRedirect {
  to: string;
  /** `next` is followed with a full page load so the target page starts from a clean state. */
  hard: boolean;
}

const PROBE_ORIGIN = 'https://this-site.invalid';
// Tabs, newlines and other control characters are dropped by browsers from URLs, which turns
// '/<tab>/evil.example' into '//evil.example': another site.
// eslint-disable-next-line no-control-regex -- the control characters are what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Only paths on this site: resolved against an origin, the result must stay on that origin, and the
 * text itself must be a plain path (no scheme, no `//host`, no backslashes, no control characters).
 */
export function isSafeLocalPath(value: string | null | undefined): value is string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return false;
  if (value.includes('\\') || CONTROL_CHARACTERS.test(value)) return false;
  try {
    const url = new URL(value, PROBE_ORIGIN);
    return url.origin === PROBE_ORIGIN && !url.pathname.startsWith('//');
  } catch {
    return false;
  }
}

const isDashboardPath = (path: string) =>
  path === '/dashboard' || path.startsWith('/dashboard?') || path.startsWith('/dashboard/');

/**
 * 1. next (hard navigation) — with shared=1 and a dashboard path it becomes /dashboard?tab=shared;
 * 2. redirect; 3. a stored post-auth redirect; 4. sharedDipId → /shared-with-me?highlightDip={id};
 * 5. a shared-deal token → /shared-deal/{token}; 6. shared=1 → /dashboard?tab=shared; 7. /dashboard,
 * unless search results are held for after sign-in: then the home page, which shows them (or the
 * verify gate) and saves them to the account (docs/decisions/0088-results-the-default-order-on-net-loan-tmc-0-commercial.md).
 */
export function loginRedirectTarget(
  params: URLSearchParams,
  postAuthRedirect: string | null = null,
  holdsResults = false,
): LoginRedirect {
  const next = params.get('next');
  const shared = params.get('shared') === '1';
  if (isSafeLocalPath(next)) {
    if (shared && isDashboardPath(next)) return { to: '/dashboard?tab=shared', hard: true };
    return { to: next, hard: true };
  }
  const redirect = params.get('redirect');
  if (isSafeLocalPath(redirect)) return { to: redirect, hard: false };
  if (isSafeLocalPath(postAuthRedirect)) return { to: postAuthRedirect, hard: false };
  const sharedDipId = params.get('sharedDipId');
  if (sharedDipId)
    return { to: `/shared-with-me?highlightDip=${encodeURIComponent(sharedDipId)}`, hard: false };
  const token = params.get('token');
  if (token) return { to: `/shared-deal/${encodeURIComponent(token)}`, hard: false };
  if (shared) return { to: '/dashboard?tab=shared', hard: false };
  if (holdsResults) return { to: '/', hard: false };
  return { to: '/dashboard', hard: false };
}
