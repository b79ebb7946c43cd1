/**
 * The Content-Security-Policy the frontends run under. Scripts only from this origin (the shell
 * and the module-federation remotes are all served through the gateway); styles from this origin
 * plus inline, because style-loader injects <style> elements at runtime; data: images and fonts for
 * inlined icons; fetches only to this origin; no plugins, no framing, no foreign form targets.
 */
export function contentSecurityPolicy(https: boolean): string {
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** Headers every gateway answer carries, whichever upstream produced the body. */
export function securityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(https),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Verification links carry a token in the query: other sites get the origin only.
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'x-dns-prefetch-control': 'off',
    'x-permitted-cross-domain-policies': 'none',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
  if (https) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}

/** What an /api answer about one person (their searches, DIPs, account) may be kept as: nowhere. */
export const PER_USER_CACHE_CONTROL = 'private, no-store';

/**
 * The Cache-Control of an answer on `path`, or null to leave it as it is. Every /api answer may carry
 * someone's data (even a search: it echoes the deal and, for a signed-in caller, the lead's score), so
 * no shared cache or browser store keeps one: `private, no-store`, unless the service chose a policy
 * that is private already (the online DIP page's 60 s). The API's documentation is the same for
 * everyone and keeps its own.
 */
export function apiCacheControl(path: string, fromService: unknown): string | null {
  const apiPath = path === '/api' || path.startsWith('/api/') || path.startsWith('/api?');
  if (!apiPath || path === '/api/docs' || path.startsWith('/api/docs/') || path.startsWith('/api/docs?'))
    return null;
  const chosen = typeof fromService === 'string' ? fromService.toLowerCase() : '';
  if (/(^|,)\s*(private|no-store)\s*(,|$)/.test(chosen)) return null;
  return PER_USER_CACHE_CONTROL;
}
