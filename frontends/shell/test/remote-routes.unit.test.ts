import { remoteForPath, routeForPath } from '../src/remotes/remote-routes';

const search = { name: 'search', paths: ['/', '/search-results/:id'] };
const dashboard = { name: 'dashboard', paths: ['/dashboard', '/dip/:loanType/:id'] };

describe('routing a path to the remote that declares it', () => {
  it('picks the remote whose published paths fit, a parameter taking one segment', () => {
    expect(remoteForPath('/search-results/abc', [search, dashboard])).toBe('search');
    expect(remoteForPath('/dip/bridging/1', [search, dashboard])).toBe('dashboard');
    expect(remoteForPath('/dashboard/', [search, dashboard])).toBe('dashboard');
    expect(remoteForPath('/', [search, dashboard])).toBe('search');
  });

  it('is nobody for a path no remote declares (the shell answers 404)', () => {
    expect(remoteForPath('/dip/bridging/1/extra', [search, dashboard])).toBeNull();
    expect(routeForPath('/nowhere', [search, dashboard])).toBeNull();
  });

  it('sends an undeclared path to a remote whose routes could not be read, so it says so with Retry', () => {
    expect(routeForPath('/dashboard', [search, { name: 'dashboard', paths: null }])).toEqual({
      remote: 'dashboard',
      known: false,
    });
    expect(routeForPath('/', [search, { name: 'dashboard', paths: null }])).toEqual({
      remote: 'search',
      known: true,
    });
  });
});
