import { CheckIcon, buttonClass } from '@lsp/ui';
import { Link } from 'react-router-dom';
import { AuthPage } from './auth-page';

export function ThankYouPage() {
  return (
    <AuthPage title="Thank you for verifying your email">
      <div className="shell-center">
        <span className="shell-status-icon shell-status-icon--success">
          <CheckIcon width={28} height={28} />
        </span>
        <p>
          Your details are confirmed. One of our finance specialists will contact you within 24 hours to talk
          through your options.
        </p>
        <div className="ui-stack">
          <Link to="/?verified=true" className={buttonClass('primary', 'lg', true)}>
            View your loan results
          </Link>
          <Link to="/dashboard" className={buttonClass('secondary', 'md', true)}>
            Go to your dashboard
          </Link>
        </div>
      </div>
    </AuthPage>
  );
}
