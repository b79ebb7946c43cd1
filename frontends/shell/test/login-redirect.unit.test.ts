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

  it('ignores next and redirect values that leave the site', () => {
    expect(isSafeLocalPath('//evil.example/x')).toBe(false);
    expect(isSafeLocalPath('https://evil.example')).toBe(false);
    expect(target('next=%2F%2Fevil.example&redirect=https://evil.example')).toEqual({
      to: '/dashboard',
      hard: false,
    });
  });
});
