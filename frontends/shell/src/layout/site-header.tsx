import { ShieldIcon, buttonClass, useSession } from '@lsp/ui';
import { Link, useLocation } from 'react-router-dom';

export function Logo() {
  return (
    <Link to="/" className="shell-logo" aria-label="LoanSearch UK home">
      <span className="shell-logo__mark" aria-hidden="true">
        £
      </span>
      <span className="shell-logo__word">
        LoanSearch<span className="shell-logo__accent"> UK</span>
      </span>
    </Link>
  );
}

/** Logo and trust badge; then 'Welcome' + name, Account and Dashboard when signed in, or Login. */
export function SiteHeader() {
  const { status, user } = useSession();
  const location = useLocation();
  const onLoginPage = location.pathname === '/login';
  return (
    <header className="shell-header">
      <div className="ui-container shell-header__inner">
        <div className="shell-header__left">
          <Logo />
          <span className="shell-trust">
            <ShieldIcon width={14} height={14} />
            <span>Secure &amp; Trusted</span>
          </span>
        </div>
        <nav className="shell-header__right" aria-label="Account">
          {status === 'authenticated' && user && (
            <>
              <span className="shell-welcome">
                Welcome, <strong>{user.name || user.email}</strong>
              </span>
              <Link to="/account" className={buttonClass('secondary', 'sm')}>
                Account
              </Link>
              <Link to="/dashboard" className={buttonClass('primary', 'sm')}>
                Dashboard
              </Link>
            </>
          )}
          {status === 'anonymous' && !onLoginPage && (
            <Link to="/login" className={buttonClass('secondary', 'sm')}>
              Login
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}
