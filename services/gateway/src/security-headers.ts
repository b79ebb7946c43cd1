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
