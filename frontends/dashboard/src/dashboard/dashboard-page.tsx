// /dashboard: header, greeting, Start New Search / Refer a Friend / Refresh Searches, the
// total number of searches and four tabs with counts (the shared tab with its unread badge). ?tab=
// selects a tab; a pending DIP slug (left by a shared link opened before signing in) moves to the
// shared tab. View DIP opens the owner or shared modal through the URL (dipId, modal=1, context=owner
// or shared=1), so back/forward re-open and close it.
import { STORAGE_KEYS } from '@lsp/contracts';
import {
  Badge,
  Button,
  Spinner,
  Tabs,
  VerifyEmailNotice,
  callApi,
  isVerificationRequired,
  buttonClass,
  clearLegacySessionKeys,
  hasRole,
  useSession,
  useToast,
  refusalToast,
} from '@lsp/ui';

import { OPS_ROLE } from '@lsp/contracts/src/common/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AlertSetting } from './alert-setting';
import { ApplicationsTab } from './applications-tab';
import {
  MODAL_CLEAR_DELAY_MS,
  dashboardReducer,
  dipFrom,
  firstAutoOpen,
  greetingName,
  initialDashboardState,
  isDipModalOpen,
  mayOpenDip,
  tabFrom,
  withDipModal,
  withTab,
  withoutDipModal,
  withoutRefer,
} from './dashboard-page-model';
import type { DipModalContext } from './dashboard-page-model';
import { DipModal } from './dip-modal';
import { DipsTab } from './dips-tab';
import { searchesKey, useApplications, useDips, useSearches, useShared, useUnreadCount } from './queries';
import { ReferFriendDialog } from './refer-friend-dialog';
import { SearchHistory } from './search-history';
import { SharedTab } from './shared-tab';

function Count({ value, loading }: { value: number | undefined; loading: boolean }) {
  return <span className="dash-count">{loading ? '…' : (value ?? 0)}</span>;
}

export function DashboardPage() {
  const { user } = useSession();
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [state, dispatch] = useReducer(dashboardReducer, params, (query) =>
    initialDashboardState(query, (dipId) => firstAutoOpen(dipId, sessionStorage)),
  );
  const userId = user?.id ?? '';

  const searches = useSearches(userId);
  const applications = useApplications(userId);
  const dips = useDips(userId);
  const shared = useShared();
  const unread = useUnreadCount();

  const tab = tabFrom(params.get('tab'));
  const { dipId, context: modalContext } = dipFrom(params);
  const modalOpen = isDipModalOpen(state, params);

  // The URL of a DIP that is not re-opened loses the modal's query, so the page is what it shows.
  useEffect(() => {
    const { notReopened } = state;
    if (!notReopened) return;
    setParams((p) => (p.get('dipId') === notReopened ? withoutDipModal(p) : p), { replace: true });
    // Once, for the URL the page was loaded with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A shared link opened before signing in leaves its slug behind: show the shared tab.
  // The slug is used once either way, so a later plain /dashboard opens on its usual tab.
  useEffect(() => {
    if (!localStorage.getItem(STORAGE_KEYS.pendingDipSlug)) return;
    localStorage.removeItem(STORAGE_KEYS.pendingDipSlug);
    if (params.get('tab') !== 'shared') setParams((p) => withTab(p, 'shared'), { replace: true });
  }, [params, setParams]);

  if (!user) return null;

  const selectTab = (next: string) => setParams((p) => withTab(p, next), { replace: true });

  const openDip = (id: string, context: DipModalContext) => {
    const now = Date.now();
    if (!mayOpenDip(state, now)) return;
    dispatch({ kind: 'dipOpened', at: now });
    setParams((p) => withDipModal(p, id, context));
  };

  const closeRefer = () => {
    dispatch({ kind: 'referClosed' });
    if (params.has('refer')) setParams(withoutRefer, { replace: true });
  };

  const closeDip = () => {
    dispatch({ kind: 'dipClosing' });
    setTimeout(() => {
      // A history entry of its own, so Back re-opens the DIP and Forward closes it again.
      setParams(withoutDipModal);
      dispatch({ kind: 'dipClosed' });
    }, MODAL_CLEAR_DELAY_MS);
  };

  const refreshSearches = async () => {
    await queryClient.invalidateQueries({ queryKey: searchesKey(userId) });
  };

  const logout = async () => {
    dispatch({ kind: 'signOutStarted' });
    try {
      const answer = await callApi('logout');
      if (!answer.ok) {
        toast(refusalToast('Logout Error', answer.data, 'Failed to log out properly'));
        return;
      }
      clearLegacySessionKeys();
      // A full page load: the signed-in pages must not stay mounted while the session re-check runs.
      window.location.assign('/');
    } catch {
      toast({ title: 'Logout Error', description: 'Network error', variant: 'error' });
    } finally {
      dispatch({ kind: 'signOutEnded' });
    }
  };

  const listState = (
    query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown },
    what: string,
  ) => {
    if (query.isPending)
      return (
        <div className="ui-row" role="status">
          <Spinner /> <span>Loading {what}...</span>
        </div>
      );
    // Not verified yet: the banner above the page offers the resend; the list says why it is empty.
    if (query.isError && isVerificationRequired(query.error)) return <VerifyEmailNotice resend={false} />;
    if (query.isError)
      return (
        <div role="alert" className="ui-stack">
          <p>Failed to load {what}. Please try again.</p>
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
            Try Again
          </Button>
        </div>
      );
    return null;
  };

  const totalSearches = searches.data?.length ?? 0;
  const unreadCount = unread.data ?? 0;

  return (
    <div className="ui-container dash-page">
      <header className="dash-header">
        <div>
          <p className="dash-header__product">LoanSearch UK</p>
          <h1>Welcome back, {greetingName(user.name || user.email)}</h1>
          <p className="ui-muted">
            Signed in as {user.name} ({user.email})
          </p>
        </div>
        <Button variant="secondary" onClick={logout} loading={state.signingOut} loadingText="Signing out...">
          Logout
        </Button>
      </header>

      <div className="dash-toolbar">
        <Link to="/" className={buttonClass('primary')}>
          Start New Search
        </Link>
        <Button variant="secondary" onClick={() => dispatch({ kind: 'referOpened' })}>
          Refer a Friend
        </Button>
        {hasRole(user, OPS_ROLE) && (
          <Link to="/operations" className={buttonClass('secondary')}>
            Operations
          </Link>
        )}
        <Button
          variant="ghost"
          onClick={() => void refreshSearches()}
          loading={searches.isFetching}
          loadingText="Refreshing..."
        >
          Refresh Searches
        </Button>
        <p className="dash-total">
          Total searches: <strong>{searches.isPending ? '…' : totalSearches}</strong>
        </p>
      </div>

      <Tabs
        label="Your account"
        value={tab}
        onValueChange={selectTab}
        items={[
          {
            value: 'history',
            label: 'Search History',
            adornment: <Count value={searches.data?.length} loading={searches.isPending} />,
            content: (
              <>
                <AlertSetting />
                {listState(searches, 'your searches') ?? (
                  <SearchHistory userId={userId} searches={searches.data ?? []} />
                )}
              </>
            ),
          },
          {
            value: 'applications',
            label: 'Applications',
            adornment: <Count value={applications.data?.length} loading={applications.isPending} />,
            content: listState(applications, 'your applications') ?? (
              <ApplicationsTab applications={applications.data ?? []} />
            ),
          },
          {
            value: 'dips',
            label: 'DIPs',
            adornment: <Count value={dips.data?.length} loading={dips.isPending} />,
            content: listState(dips, 'your DIPs') ?? (
              <DipsTab userId={userId} dips={dips.data ?? []} onView={(id) => openDip(id, 'owner')} />
            ),
          },
          {
            value: 'shared',
            label: 'Shared with me',
            adornment: (
              <>
                <Count value={shared.data?.length} loading={shared.isPending} />
                {unreadCount > 0 && (
                  <Badge variant="danger" className="dash-unread" aria-label={`${unreadCount} unread`}>
                    {unreadCount}
                  </Badge>
                )}
              </>
            ),
            content: (
              <SharedTab
                highlightDipId={params.get('highlightDip')}
                onView={(item) => openDip(item.dipId, 'shared')}
              />
            ),
          },
        ]}
      />

      <DipModal dipId={dipId} context={modalContext} open={modalOpen} onClose={closeDip} />
      <ReferFriendDialog open={state.referOpen} onClose={closeRefer} userName={user.name} />
    </div>
  );
}
