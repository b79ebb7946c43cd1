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
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AlertSetting } from './alert-setting';
import { ApplicationsTab } from './applications-tab';
import { DipModal } from './dip-modal';
import { DipsTab } from './dips-tab';
import { searchesKey, useApplications, useDips, useSearches, useShared, useUnreadCount } from './queries';
import { ReferFriendDialog } from './refer-friend-dialog';
import { SearchHistory } from './search-history';
import { SharedTab } from './shared-tab';

export const TABS = ['history', 'applications', 'dips', 'shared'] as const;
export type DashboardTab = (typeof TABS)[number];
/** Opening a DIP again within this window is ignored (a double click opens it once). */
export const MODAL_OPEN_THROTTLE_MS = 500;
/** The URL query is cleared this long after a modal closes, so its closing animation runs first. */
export const MODAL_CLEAR_DELAY_MS = 100;

/**
 * The first name: the first word, or the second when the first is a title (Mr, Mrs, Dr...). The spec
 * says 'the second word', which only holds for names written with a title (see docs/decisions/0036-dashboard-greeting-uses-the-first-name.md).
 */
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'sir', 'dame', 'lord', 'lady', 'rev']);
export function greetingName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  if (words.length > 1 && TITLES.has(words[0].toLowerCase().replace(/\.$/, ''))) return words[1];
  return words[0];
}

/** Session storage: the DIPs whose modal a loaded URL (modal=1) has opened already in this tab. */
export const AUTO_OPENED_DIPS_KEY = 'autoOpenedDips';
/** Decisions made in this page load, so a re-render (or React's double render) decides the same. */
const autoOpenDecisions = new Map<string, boolean>();

/**
 * 'DIP modal URL state': each DIP auto-opens once. A page loaded with dipId and modal=1
 * opens that DIP's modal the first time in this browser tab; a reload (or the same deep link again)
 * shows the dashboard without it. View DIP and Back/Forward still open it.
 */
export function firstAutoOpen(dipId: string, storage: Pick<Storage, 'getItem' | 'setItem'>): boolean {
  const decided = autoOpenDecisions.get(dipId);
  if (decided !== undefined) return decided;
  let first = true;
  try {
    const seen = JSON.parse(storage.getItem(AUTO_OPENED_DIPS_KEY) ?? '[]') as unknown;
    const list = Array.isArray(seen) ? seen.filter((id): id is string => typeof id === 'string') : [];
    first = !list.includes(dipId);
    if (first) storage.setItem(AUTO_OPENED_DIPS_KEY, JSON.stringify([...list, dipId].slice(-200)));
  } catch {
    // Storage unavailable: open it, as without the rule.
  }
  autoOpenDecisions.set(dipId, first);
  return first;
}

function tabFrom(value: string | null): DashboardTab {
  if (value === 'searches' || value === 'search-history') return 'history';
  return (TABS as readonly string[]).includes(value ?? '') ? (value as DashboardTab) : 'history';
}

function Count({ value, loading }: { value: number | undefined; loading: boolean }) {
  return <span className="dash-count">{loading ? '…' : (value ?? 0)}</span>;
}

export function DashboardPage() {
  const { user } = useSession();
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [signingOut, setSigningOut] = useState(false);
  // /refer lands here with ?refer=1: the Refer a Friend dialog opens at once.
  const [referOpen, setReferOpen] = useState(() => params.get('refer') === '1');
  const [modalClosing, setModalClosing] = useState(false);
  // The DIP a loaded URL asked to open although it has auto-opened before: not opened again.
  const [notReopened, setNotReopened] = useState(() => {
    const id = params.get('dipId');
    if (!id || params.get('modal') !== '1') return null;
    return firstAutoOpen(id, sessionStorage) ? null : id;
  });
  const lastOpen = useRef(0);
  const userId = user?.id ?? '';

  const searches = useSearches(userId);
  const applications = useApplications(userId);
  const dips = useDips(userId);
  const shared = useShared();
  const unread = useUnreadCount();

  const tab = tabFrom(params.get('tab'));
  const dipId = params.get('dipId');
  const modalContext = params.get('shared') === '1' ? 'shared' : 'owner';
  const modalOpen = Boolean(dipId) && params.get('modal') === '1' && !modalClosing && dipId !== notReopened;

  // The URL of a DIP that is not re-opened loses the modal's query, so the page is what it shows.
  useEffect(() => {
    if (!notReopened) return;
    setParams(
      (p) => {
        if (p.get('dipId') === notReopened)
          for (const key of ['dipId', 'modal', 'context', 'shared']) p.delete(key);
        return p;
      },
      { replace: true },
    );
    // Once, for the URL the page was loaded with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A shared link opened before signing in leaves its slug behind: show the shared tab.
  // The slug is used once either way, so a later plain /dashboard opens on its usual tab.
  useEffect(() => {
    if (!localStorage.getItem(STORAGE_KEYS.pendingDipSlug)) return;
    localStorage.removeItem(STORAGE_KEYS.pendingDipSlug);
    if (params.get('tab') !== 'shared') {
      setParams(
        (p) => {
          p.set('tab', 'shared');
          return p;
        },
        { replace: true },
      );
    }
  }, [params, setParams]);

  if (!user) return null;

  const selectTab = (next: string) =>
    setParams(
      (p) => {
        if (next === 'history') p.delete('tab');
        else p.set('tab', next);
        return p;
      },
      { replace: true },
    );

  const openDip = (id: string, context: 'owner' | 'shared') => {
    const now = Date.now();
    if (now - lastOpen.current < MODAL_OPEN_THROTTLE_MS) return;
    lastOpen.current = now;
    setModalClosing(false);
    setNotReopened(null);
    setParams((p) => {
      p.set('dipId', id);
      p.set('modal', '1');
      if (context === 'owner') {
        p.set('context', 'owner');
        p.delete('shared');
      } else {
        p.set('shared', '1');
        p.delete('context');
      }
      return p;
    });
  };

  const closeRefer = () => {
    setReferOpen(false);
    if (params.has('refer'))
      setParams(
        (p) => {
          p.delete('refer');
          return p;
        },
        { replace: true },
      );
  };

  const closeDip = () => {
    setModalClosing(true);
    setTimeout(() => {
      // A history entry of its own, so Back re-opens the DIP and Forward closes it again.
      setParams((p) => {
        for (const key of ['dipId', 'modal', 'context', 'shared']) p.delete(key);
        return p;
      });
      setModalClosing(false);
    }, MODAL_CLEAR_DELAY_MS);
  };

  const refreshSearches = async () => {
    await queryClient.invalidateQueries({ queryKey: searchesKey(userId) });
  };

  const logout = async () => {
    setSigningOut(true);
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
      setSigningOut(false);
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
        <Button variant="secondary" onClick={logout} loading={signingOut} loadingText="Signing out...">
          Logout
        </Button>
      </header>

      <div className="dash-toolbar">
        <Link to="/" className={buttonClass('primary')}>
          Start New Search
        </Link>
        <Button variant="secondary" onClick={() => setReferOpen(true)}>
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
      <ReferFriendDialog open={referOpen} onClose={closeRefer} userName={user.name} />
    </div>
  );
}
