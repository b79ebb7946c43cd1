import { isSafeLocalPath, loginRedirectTarget } from '../src/auth/login-redirect';

const target = (query: string, stored: string | null = null) =>
  loginRedirectTarget(new URLSearchParams(query), stored);

describe('login redirect order', () => {
  it('follows next with a full page load before anything else', () => {
    expect(target('next=%2Fsearch-results%2F42%3Fx%3D1&redirect=/other&sharedDipId=9')).toEqual({
      to: '/search-results/42?x=1',
      hard: true,
    });
  });

  it('sends a shared dashboard next to the shared tab', () => {
    expect(target('next=%2Fdashboard&shared=1')).toEqual({ to: '/dashboard?tab=shared', hard: true });
  });

  it('uses redirect when there is no next', () => {
    expect(target('redirect=/dip/abc&sharedDipId=9')).toEqual({ to: '/dip/abc', hard: false });
  });

  it('prefers a stored post-auth redirect over shared parameters', () => {
    expect(target('sharedDipId=9', '/dip/slug-1')).toEqual({ to: '/dip/slug-1', hard: false });
  });

  it('highlights a shared DIP when sharedDipId is given', () => {
    expect(target('sharedDipId=d%201')).toEqual({ to: '/shared-with-me?highlightDip=d%201', hard: false });
  });

  it('opens a shared deal for a shared token', () => {
    expect(target('token=tok123&shared=1')).toEqual({ to: '/shared-deal/tok123', hard: false });
  });

  it('opens the shared tab for shared=1 alone, else the dashboard', () => {
    expect(target('shared=1')).toEqual({ to: '/dashboard?tab=shared', hard: false });
    expect(target('')).toEqual({ to: '/dashboard', hard: false });
  });

  it('refuses every disguise of another origin: tabs, newlines, encoded slashes, backslashes', () => {
    for (const next of ['/%09/evil.example', '/%0a/evil.example', '/%5c/evil.example', '/\\evil.example']) {
      const params = new URLSearchParams(`next=${next}`);
      expect(isSafeLocalPath(params.get('next'))).toBe(false);
      expect(loginRedirectTarget(params, null).to).toBe('/dashboard');
    }
    for (const raw of [
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r//evil.example',
      '/\u0000x',
      'javascript:alert(1)',
    ])
      expect(isSafeLocalPath(raw)).toBe(false);
    expect(isSafeLocalPath('/dashboard?tab=shared')).toBe(true);
    expect(isSafeLocalPath('/shared/abc?e=x&sig=y')).toBe(true);
  });

  it('ignores next and redirect values that leave the site', () => {
    expect(isSafeLocalPath('//evil.example/x')).toBe(false);
    expect(isSafeLocalPath('https://evil.example')).toBe(false);
    expect(target('next=%2F%2Fevil.example&redirect=https://evil.example')).toEqual({
      to: '/dashboard',
      hard: false,
    });
  });

  it('goes to the home page, where held search results show, instead of the dashboard', () => {
    expect(loginRedirectTarget(new URLSearchParams(''), null, true)).toEqual({ to: '/', hard: false });
    expect(loginRedirectTarget(new URLSearchParams(''), null, false)).toEqual({
      to: '/dashboard',
      hard: false,
    });
    // What the person was sent to sign in for still comes first.
    expect(loginRedirectTarget(new URLSearchParams('next=%2Fdip%2Fx'), null, true)).toEqual({
      to: '/dip/x',
      hard: true,
    });
    expect(loginRedirectTarget(new URLSearchParams('shared=1'), null, true).to).toBe('/dashboard?tab=shared');
  });
});
