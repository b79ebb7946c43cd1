// Renders a remote's App, loaded on first use. Loading and rendering failures end in a fallback
// with Retry inside the page layout, never a blank page.
import { Alert, Button, PageLoading } from '@lsp/ui';
import { Component, useCallback, useEffect, useState } from 'react';
import type { ComponentType, ErrorInfo, ReactNode } from 'react';
import { loadRemoteApp } from './remote-registry';
import type { RemoteName } from './remote-registry';

const LABELS: Record<RemoteName, string> = { search: 'loan search', dashboard: 'dashboard' };

/** Loaded remote components, so moving between pages of one remote does not load it again. */
const loaded = new Map<RemoteName, ComponentType>();

type State =
  { status: 'loading' } | { status: 'ready'; App: ComponentType } | { status: 'failed'; error: Error };

export function RemoteApp({ name }: { name: RemoteName }) {
  const cached = loaded.get(name);
  const [state, setState] = useState<State>(
    cached ? { status: 'ready', App: cached } : { status: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const ready = loaded.get(name);
    if (ready) {
      setState({ status: 'ready', App: ready });
      return;
    }
    let current = true;
    setState({ status: 'loading' });
    loadRemoteApp(name, attempt > 0).then(
      (App) => {
        loaded.set(name, App);
        if (current) setState({ status: 'ready', App });
      },
      (error: Error) => {
        console.error(`Could not load the ${name} remote`, error);
        if (current) setState({ status: 'failed', error });
      },
    );
    return () => {
      current = false;
    };
  }, [name, attempt]);

  const retry = useCallback(() => {
    loaded.delete(name);
    setAttempt((n) => n + 1);
  }, [name]);

  if (state.status === 'loading') return <PageLoading label={`Loading the ${LABELS[name]}...`} />;
  if (state.status === 'failed') return <RemoteFallback name={name} onRetry={retry} />;
  return (
    <RemoteErrorBoundary name={name} onRetry={retry} resetKey={attempt}>
      <state.App />
    </RemoteErrorBoundary>
  );
}

export function RemoteFallback({ name, onRetry }: { name: RemoteName; onRetry: () => void }) {
  return <UnavailableFallback title={`The ${LABELS[name]} could not be loaded`} onRetry={onRetry} />;
}

/** The registry of remotes itself could not be read: no remote page can be shown yet. */
export function RegistryFallback({ onRetry }: { onRetry: () => void }) {
  return <UnavailableFallback title="This page could not be loaded" onRetry={onRetry} />;
}

function UnavailableFallback({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <div className="shell-fallback" data-testid="remote-fallback">
      <Alert variant="warning" title={title} live>
        <p>
          This part of the site is not available right now. Your details are safe; please try again in a
          moment.
        </p>
      </Alert>
      <div className="ui-row">
        <Button onClick={onRetry}>Retry</Button>
        <a href="/" className="ui-button ui-button--secondary">
          Go to the home page
        </a>
      </div>
    </div>
  );
}

interface BoundaryProps {
  name: RemoteName;
  onRetry: () => void;
  resetKey: number;
  children: ReactNode;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean; resetKey: number }> {
  state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { failed: boolean; resetKey: number }) {
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`The ${this.props.name} remote failed while rendering`, error, info.componentStack);
  }

  render() {
    if (this.state.failed) return <RemoteFallback name={this.props.name} onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}
