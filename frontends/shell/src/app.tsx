import { AppProviders } from '@lsp/ui';
import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { Layout } from './layout/layout';
import { RemoteRoute } from './remotes/remote-route';
import './shell.css';

// Pages load on demand so the first paint of the home page carries only the layout.
const LoginPage = lazy(() => import('./pages/login-page.js').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() =>
  import('./pages/register-page.js').then((m) => ({ default: m.RegisterPage })),
);
const CreateAccountPage = lazy(() =>
  import('./pages/create-account-page.js').then((m) => ({ default: m.CreateAccountPage })),
);
const VerifyEmailPage = lazy(() =>
  import('./pages/verify-email-page.js').then((m) => ({ default: m.VerifyEmailPage })),
);
const ThankYouPage = lazy(() =>
  import('./pages/thank-you-page.js').then((m) => ({ default: m.ThankYouPage })),
);
const LegalPage = lazy(() => import('./pages/legal-page.js').then((m) => ({ default: m.LegalPage })));
const ForgotPasswordPage = lazy(() =>
  import('./pages/forgot-password-page.js').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('./pages/reset-password-page.js').then((m) => ({ default: m.ResetPasswordPage })),
);
const AccountPage = lazy(() => import('./pages/account-page.js').then((m) => ({ default: m.AccountPage })));

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <Routes>
          <Route element={<Layout />}>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/create-account" element={<CreateAccountPage />} />
            <Route path="/verify-email" element={<VerifyEmailPage />} />
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/reset-password" element={<ResetPasswordPage />} />
            <Route path="/account" element={<AccountPage />} />
            <Route path="/thank-you" element={<ThankYouPage />} />
            <Route path="/privacy" element={<LegalPage page="privacy" />} />
            <Route path="/terms" element={<LegalPage page="terms" />} />
            <Route path="/cookies" element={<LegalPage page="cookies" />} />
            {/* Every other path belongs to the remote that declares it; the remote's own <Routes> sees the full path. */}
            <Route path="*" element={<RemoteRoute />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}
