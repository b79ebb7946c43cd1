// The dashboard remote's route tree. The shell delegates /dashboard, /dip, /dips, /shared,
// /share, /shared-with-me, /shared-deal, /refer, /operations and /operations/panel here; paths are
// matched in full.
// Pages other than the dashboard load on first visit, so the dashboard's first download stays small.
import { NotFoundPage, PageLoading, RequireSession } from '@lsp/ui';
import { AUTH_GATE_LABEL } from './dashboard/dip-display';
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { DashboardPage } from './dashboard/dashboard-page';
import './dashboard/dashboard.css';
import {
  DipViewRedirect,
  ReferRedirect,
  ShareLandingRedirect,
  SharedWithMeRedirect,
} from './pages/redirects';

const DipDeepLinkPage = lazy(() =>
  import('./pages/dip-deep-link-page.js').then((m) => ({ default: m.DipDeepLinkPage })),
);
const OnlineDipPage = lazy(() =>
  import('./pages/online-dip-page.js').then((m) => ({ default: m.OnlineDipPage })),
);
const SharedDipPage = lazy(() =>
  import('./pages/shared-dip-page.js').then((m) => ({ default: m.SharedDipPage })),
);
const DipApplicationPage = lazy(() =>
  import('./pages/dip-application-page.js').then((m) => ({ default: m.DipApplicationPage })),
);
const OperationsPage = lazy(() =>
  import('./operations/operations-page.js').then((m) => ({ default: m.OperationsPage })),
);
const LenderPanelPage = lazy(() =>
  import('./operations/panel-page.js').then((m) => ({ default: m.LenderPanelPage })),
);
const SharedDealPage = lazy(() =>
  import('./pages/shared-deal-page.js').then((m) => ({ default: m.SharedDealPage })),
);

const page = (element: ReactNode) => <Suspense fallback={<PageLoading />}>{element}</Suspense>;
// The auth gate of these pages (spec 001's) says 'Checking authentication...' while the session is checked.
const signedIn = (element: ReactNode) => (
  <RequireSession label={AUTH_GATE_LABEL}>{page(element)}</RequireSession>
);

export default function App() {
  return (
    <Routes>
      <Route path="/dashboard" element={signedIn(<DashboardPage />)} />
      <Route path="/dips/:id" element={signedIn(<DipDeepLinkPage />)} />
      <Route path="/dip/view/:slug" element={<DipViewRedirect />} />
      <Route path="/dip/:loanType/:id" element={signedIn(<DipApplicationPage />)} />
      <Route path="/dip/:slug" element={page(<OnlineDipPage />)} />
      <Route path="/shared" element={<SharedWithMeRedirect />} />
      <Route path="/shared/:slug" element={page(<SharedDipPage />)} />
      <Route path="/shared-with-me" element={<SharedWithMeRedirect />} />
      <Route path="/share/dip/:shareId" element={signedIn(<ShareLandingRedirect />)} />
      <Route path="/shared-deal" element={page(<SharedDealPage />)} />
      <Route path="/shared-deal/:token" element={page(<SharedDealPage />)} />
      <Route path="/refer" element={signedIn(<ReferRedirect />)} />
      <Route path="/operations" element={signedIn(<OperationsPage />)} />
      <Route path="/operations/panel" element={signedIn(<LenderPanelPage />)} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
