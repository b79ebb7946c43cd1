import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { PageLoading } from '../components/spinner';
import { redirectToLogin } from './api';
import { useSession } from './session';

/**
 * Wraps a page that needs a signed-in user: 'Verifying access...' while the session is checked,
 * then the page, or a trip to /login?next=<this page>.
 */
export function RequireSession({
  children,
  label = 'Verifying access...',
}: {
  children: ReactNode;
  label?: string;
}) {
  const { status } = useSession();
  useEffect(() => {
    if (status === 'anonymous') redirectToLogin();
  }, [status]);
  if (status !== 'authenticated') return <PageLoading label={label} />;
  return <>{children}</>;
}
