// Every path the shell does not render itself: routed to the remote whose published routes declare
// it, once the registry is read; the shell's 404 when none does.
import { NotFoundPage, PageLoading } from '@lsp/ui';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { RemoteApp, RemoteFallback, RegistryFallback } from './remote-app';
import { type RemoteEntry, ensureRegistry, forgetRegistry } from './remote-registry';
import { routeForPath } from './remote-routes';

type Registry = { status: 'loading' } | { status: 'ready'; remotes: RemoteEntry[] } | { status: 'failed' };

export function RemoteRoute() {
  const { pathname } = useLocation();
  const [registry, setRegistry] = useState<Registry>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    ensureRegistry().then(
      (remotes) => current && setRegistry({ status: 'ready', remotes }),
      (error: Error) => {
        console.error('Could not read the remote registry', error);
        if (current) setRegistry({ status: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const retry = useCallback(() => {
    forgetRegistry();
    setRegistry({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  if (registry.status === 'loading') return <PageLoading label="Loading..." />;
  if (registry.status === 'failed') return <RegistryFallback onRetry={retry} />;
  const route = routeForPath(pathname, registry.remotes);
  if (!route) return <NotFoundPage />;
  if (!route.known) return <RemoteFallback name={route.remote} onRetry={retry} />;
  return <RemoteApp key={route.remote} name={route.remote} />;
}
