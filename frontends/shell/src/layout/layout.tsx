import { PageLoading } from '@lsp/ui';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { BackToTop } from './back-to-top';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

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
