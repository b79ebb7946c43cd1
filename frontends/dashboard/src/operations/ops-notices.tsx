// What the console's pages show instead of their content: the refusal to a user without the ops
// role (the server answers 403), and a load failure (the network, a 5xx) with Retry.
import { Alert, ApiError, Button } from '@lsp/ui';
import { errorText } from './format';

export function OpsForbidden({ title = 'Operations' }: { title?: string }) {
  return (
    <main className="ops-page" aria-labelledby="ops-title">
      <h1 id="ops-title">{title}</h1>
      <Alert variant="danger" title="Operations access only">
        This console is for the operations team. Ask an administrator to add your email to the operations
        list, then sign in again.
      </Alert>
    </main>
  );
}

/** Why a call failed, in words: the server's own message, or that it could not be reached. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError)
    return error.status >= 500 ? `${error.message} (the server answered ${error.status})` : error.message;
  if (error instanceof TypeError) return 'The server could not be reached: check the connection and retry.';
  return errorText(error);
}

/** A load that failed, its reason and a Retry button (the retry shows as loading while it runs). */
export function LoadError({
  title,
  error,
  onRetry,
  retrying,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <Alert variant="danger" title={title} live className="ops-load-error">
      <p>{failureText(error)}</p>
      <Button size="sm" variant="secondary" onClick={onRetry} loading={retrying}>
        Retry
      </Button>
    </Alert>
  );
}
