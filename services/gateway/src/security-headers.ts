import { randomBytes } from 'node:crypto';

/**
 * The Content-Security-Policy the frontends run under. Scripts only from this origin (the shell
 * and the module-federation remotes are all served through the gateway); stylesheets only from this
 * origin (the frontends' CSS is built into .css files) and, for a page the server renders with a
 * <style> element (the API documentation, the unsubscribe page), that answer's nonce; no inline
 * script or style otherwise. data: images and fonts for inlined icons; fetches only to this origin;
 * no plugins, no framing, no foreign form targets.
 */
export function contentSecurityPolicy(
  https: boolean,
  styles: { nonce?: string; inline?: boolean } = {},
): string {
  const styleSources = ["'self'"];
  if (styles.nonce) styleSources.push(`'nonce-${styles.nonce}'`);
  if (styles.inline) styleSources.push("'unsafe-inline'");
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSources.join(' ')}`,
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

/**
 * Whether an answer's styles may be inline: only the development mail catcher's (`/dev/mail`), whose
 * page shows each caught email's HTML in a frame that inherits the page's policy, and emails are
 * styled inline. It exists only when MAIL_CATCHER_ENABLED, never in production.
 */
export function inlineStylesAllowed(path: string): boolean {
  return path === '/dev/mail' || path.startsWith('/dev/mail/') || path.startsWith('/dev/mail?');
}

/** A fresh nonce for one answer's <style> elements: 128 random bits. */
export function newStyleNonce(): string {
  return randomBytes(16).toString('base64');
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
