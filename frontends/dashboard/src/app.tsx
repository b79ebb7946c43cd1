// The dashboard remote's route tree. The shell delegates /dashboard, /dip, /dips, /shared,
// /share, /shared-with-me, /shared-deal, /refer and /operations here; paths are matched in full.
import { NotFoundPage, RequireSession } from '@lsp/ui';
import { Route, Routes } from 'react-router-dom';
import { DashboardPage } from './dashboard/dashboard-page';
import './dashboard/dashboard.css';
import { UnavailablePage } from './unavailable-page';

export default function App() {
  return (
    <Routes>
      <Route
        path="/dashboard"
        element={
          <RequireSession>
            <DashboardPage />
          </RequireSession>
        }
      />
      <Route path="/dip/*" element={<UnavailablePage feature="Decisions in Principle" />} />
      <Route path="/dips/*" element={<UnavailablePage feature="Decisions in Principle" />} />
      <Route path="/shared/*" element={<UnavailablePage feature="Shared Decisions in Principle" />} />
      <Route path="/share/*" element={<UnavailablePage feature="Shared Decisions in Principle" />} />
      <Route path="/shared-with-me" element={<UnavailablePage feature="Shared with me" />} />
      <Route path="/shared-deal/*" element={<UnavailablePage feature="Shared deals" />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
