import { contentSecurityPolicy, securityHeaders } from '../src/security-headers';

describe('security headers', () => {
  it('allow scripts only from the site itself', () => {
    const csp = contentSecurityPolicy(false);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('send HSTS only under https', () => {
    expect(securityHeaders(false)['strict-transport-security']).toBeUndefined();
    expect(securityHeaders(true)['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
