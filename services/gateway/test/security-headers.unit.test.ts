import {
  contentSecurityPolicy,
  inlineStylesAllowed,
  newStyleNonce,
  securityHeaders,
} from '../src/security-headers';

describe('security headers', () => {
  it('allow scripts only from the site itself', () => {
    const csp = contentSecurityPolicy(false);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it("allow stylesheets from the site and inline styles only with the answer's nonce", () => {
    expect(contentSecurityPolicy(false)).toMatch(/style-src 'self'(;|$)/);
    expect(contentSecurityPolicy(false, { nonce: 'abc' })).toMatch(/style-src 'self' 'nonce-abc'(;|$)/);
    expect(contentSecurityPolicy(true, { nonce: 'abc' })).not.toContain('unsafe-inline');
    expect(newStyleNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newStyleNonce()).not.toBe(newStyleNonce());
  });

  it("allow inline styles only on the development mail catcher's pages", () => {
    expect(contentSecurityPolicy(false, { inline: true })).toMatch(/style-src 'self' 'unsafe-inline'(;|$)/);
    expect(inlineStylesAllowed('/dev/mail')).toBe(true);
    expect(inlineStylesAllowed('/dev/mail/messages')).toBe(true);
    for (const path of ['/', '/dashboard', '/api/docs', '/api/alerts/unsubscribe?token=x', '/dev/mailbox'])
      expect(inlineStylesAllowed(path)).toBe(false);
  });

  it('send HSTS only under https', () => {
    expect(securityHeaders(false)['strict-transport-security']).toBeUndefined();
    expect(securityHeaders(true)['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
