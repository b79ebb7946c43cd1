import { Link } from 'react-router-dom';
import { buttonClass } from './button';

/** The 404 page: the shell's, and any remote's for paths it does not know. */
export function NotFoundPage() {
  return (
    <section
      className="ui-container"
      style={{ padding: 'var(--space-8) var(--space-4)', textAlign: 'center' }}
      aria-labelledby="not-found-title"
    >
      <p className="ui-muted" style={{ fontWeight: 600, letterSpacing: '0.08em' }}>
        404
      </p>
      <h1 id="not-found-title">Page not found</h1>
      <p className="ui-muted">The page you were looking for does not exist or has moved.</p>
      <div className="ui-row" style={{ justifyContent: 'center', marginTop: 'var(--space-5)' }}>
        <Link to="/" className={buttonClass('primary')}>
          Search for a loan
        </Link>
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Go to your dashboard
        </Link>
      </div>
    </section>
  );
}
