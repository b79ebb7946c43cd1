import { API_ROUTES, upstreamFor } from '../src/routes-table';

describe('the gateway routing table', () => {
  it.each([
    ['/api/auth/me', 'identity'],
    ['/api/login', 'identity'],
    ['/api/verify-email?token=abc', 'identity'],
    ['/api/development', 'search'],
    ['/api/search', 'search'],
    ['/api/search/project-name', 'search'],
    ['/api/search-result/123', 'search'],
    ['/api/user-searches/u1', 'search'],
    ['/api/online-dip/create/s1/0', 'dip'],
    ['/api/applications/u1', 'dip'],
    ['/api/shared/unread-count', 'sharing'],
    ['/api/shared-deal/tok/viewed', 'sharing'],
    ['/api/referrals/deal-share', 'sharing'],
    ['/api/online-dip/3f1c2a8e-0000-4000-8000-000000000001/share', 'sharing'],
    ['/api/online-dip/shared/Zx9slug?e=YQ&sig=s', 'sharing'],
    ['/api/online-dip/3f1c2a8e-0000-4000-8000-000000000001', 'dip'],
    ['/api/online-dip/3f1c2a8e-0000-4000-8000-000000000001/regenerate-link', 'dip'],
    ['/api/online-dip/sharedslug', 'dip'],
    ['/api/online-dip/a/share/more', 'dip'],
  ])('routes %s to %s', (path, upstream) => {
    expect(upstreamFor(path)).toBe(upstream);
  });

  it('matches whole path segments only', () => {
    expect(upstreamFor('/api/searches')).toBeNull();
    expect(upstreamFor('/api/loginx')).toBeNull();
    expect(upstreamFor('/api/unknown')).toBeNull();
  });

  it('lists each prefix once', () => {
    const prefixes = API_ROUTES.map((r) => r.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});
