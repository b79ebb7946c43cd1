import { PageLoading, VerifyEmailNotice, useSession } from '@lsp/ui';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { BackToTop } from './back-to-top';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Pages about verification itself, where the notice would repeat what the page says. */
const VERIFICATION_PAGES = new Set(['/verify-email', '/thank-you']);

/**
 * Signed in but not verified yet: every page says so, with the resend button, since the services
 * refuse such a caller everything owned or shared (DIPs, applications, shares, deals, referrals).
 */
function UnverifiedBanner({ pathname }: { pathname: string }) {
  const { status, user } = useSession();
  if (status !== 'authenticated' || !user || user.verified || VERIFICATION_PAGES.has(pathname)) return null;
  return (
    <section className="ui-container shell-verify-banner" aria-label="Email verification">
      <VerifyEmailNotice email={user.email} />
    </section>
  );
}

export function Layout() {
  const { pathname } = useLocation();
  // A new page starts at the top, as a full page load would.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <div className="shell">
      <a className="shell-skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <UnverifiedBanner pathname={pathname} />
      <main id="main" className="shell-main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <BackToTop />
    </div>
  );
}
