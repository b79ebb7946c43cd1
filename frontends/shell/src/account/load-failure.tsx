// A list that did not load: the services' own words when they refused it (an address not verified
// yet), otherwise a plain failure with Try Again.
import { Alert, ApiError, Button, VERIFY_EMAIL_TITLE, isVerificationRequired } from '@lsp/ui';

export function LoadFailure({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 403)
    return (
      <Alert variant="warning" title={isVerificationRequired(error) ? VERIFY_EMAIL_TITLE : 'Not allowed'}>
        {error.message}
      </Alert>
    );
  return (
    <p className="ui-muted" role="alert">
      Could not load {what}.{' '}
      <Button size="sm" variant="link" onClick={onRetry}>
        Try Again
      </Button>
    </p>
  );
}
