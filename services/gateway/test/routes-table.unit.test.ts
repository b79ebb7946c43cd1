import { PUBLIC_API_ROUTES, defineRoute } from '@lsp/contracts';
import { API_ROUTES, apiPrefixesOf, upstreamFor } from '../src/routes-table';

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

describe('the routing table derived from the contracts', () => {
  it('routes every declared route to its service, the gateway keeping its own', () => {
    for (const route of PUBLIC_API_ROUTES) {
      const example = route.path.replace(/:[A-Za-z0-9_]+/g, 'x1');
      expect([route.path, upstreamFor(example)]).toEqual([
        route.path,
        route.service === 'gateway' ? null : route.service,
      ]);
    }
  });

  it('prefers literal segments to parameters when two declared routes match', () => {
    expect(upstreamFor('/api/online-dip/shared/share')).toBe('sharing');
    expect(upstreamFor('/api/online-dip/pdf/Q123')).toBe('dip');
  });

  it('gives a shared prefix to the service declaring most routes under it', () => {
    const route = (path: string, service: 'dip' | 'sharing') =>
      defineRoute({
        operationId: path,
        method: 'GET',
        path,
        service,
        summary: '',
        auth: 'public',
        responses: {},
      });
    expect(
      apiPrefixesOf([
        route('/api/x/:id', 'dip'),
        route('/api/x/:id/a', 'dip'),
        route('/api/x/:id/b', 'sharing'),
      ]),
    ).toEqual([{ prefix: '/api/x', upstream: 'dip' }]);
    expect(() => apiPrefixesOf([route('/api/x/:id', 'dip'), route('/api/x/:id/b', 'sharing')])).toThrow(
      /claimed by dip and sharing equally/,
    );
  });
});
