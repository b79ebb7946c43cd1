import { Alert, buttonClass } from '@lsp/ui';
import { Link } from 'react-router-dom';

/** Said plainly for account features that are not open yet, so no link ever ends on a blank page. */
export function UnavailablePage({ feature }: { feature: string }) {
  return (
    <div className="ui-container" style={{ padding: 'var(--space-7) var(--space-4)', maxWidth: 720 }}>
      <h1>{feature}</h1>
      <Alert variant="info" title="This feature is not available yet">
        {feature} will open here soon. Your searches and account are unaffected.
      </Alert>
      <div className="ui-row" style={{ marginTop: 'var(--space-5)' }}>
        <Link to="/dashboard" className={buttonClass('primary')}>
          Go to your dashboard
        </Link>
        <Link to="/" className={buttonClass('secondary')}>
          Search for a loan
        </Link>
      </div>
    </div>
  );
}
