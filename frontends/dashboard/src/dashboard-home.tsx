import {
  Badge,
  Button,
  Card,
  apiSend,
  buttonClass,
  clearLegacySessionKeys,
  useSession,
  useToast,
} from '@lsp/ui';
import { useState } from 'react';
import { Link } from 'react-router-dom';

/** 'Welcome back' and the second word of the name (the first name after a title), else the whole name. */
export function greetingName(name: string): string {
  const words = name.trim().split(/\s+/);
  return words.length > 1 ? words[1] : name.trim();
}

export function DashboardHome() {
  const { user } = useSession();
  const { toast } = useToast();
  const [signingOut, setSigningOut] = useState(false);
  if (!user) return null;

  const logout = async () => {
    setSigningOut(true);
    try {
      const { ok, data } = await apiSend<{ error?: string }>('POST', '/api/logout');
      if (!ok) {
        toast({
          title: 'Logout Error',
          description: data?.error ?? 'Failed to log out properly',
          variant: 'error',
        });
        return;
      }
      clearLegacySessionKeys();
      // A full page load, not a client-side navigation: the signed-in pages (and their cached data)
      // must not stay mounted while the session re-check runs, or their guard sends the visitor to
      // /login instead of the home page.
      window.location.assign('/');
    } catch {
      toast({ title: 'Logout Error', description: 'Network error', variant: 'error' });
    } finally {
      setSigningOut(false);
    }
  };

  return (
    <div className="ui-container" style={{ padding: 'var(--space-6) var(--space-4) var(--space-8)' }}>
      <div className="ui-row" style={{ justifyContent: 'space-between', marginBottom: 'var(--space-5)' }}>
        <div>
          <h1 style={{ marginBottom: 'var(--space-1)' }}>
            Welcome back, {greetingName(user.name || user.email)}
          </h1>
          <p className="ui-muted" style={{ margin: 0 }}>
            Signed in as {user.name} ({user.email}){' '}
            {user.verified ? (
              <Badge variant="success">Email verified</Badge>
            ) : (
              <Badge variant="warning">Email not verified</Badge>
            )}
          </p>
        </div>
        <div className="ui-row">
          <Link to="/" className={buttonClass('primary')}>
            Start New Search
          </Link>
          <Button variant="secondary" onClick={logout} loading={signingOut} loadingText="Signing out...">
            Logout
          </Button>
        </div>
      </div>
      <Card title="Your account" headingLevel={2}>
        <p>
          From here you will find your saved searches, applications, Decisions in Principle and the deals
          shared with you.
        </p>
        <p className="ui-muted" style={{ margin: 0 }}>
          Run a search from the home page to compare lender offers; every search you run while signed in is
          saved to your account.
        </p>
      </Card>
    </div>
  );
}
