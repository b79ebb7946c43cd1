// The dashboard page's state, kept apart from React so its rules are unit-tested: which tab the URL
// selects, how the URL opens and closes a DIP's modal (and when a loaded URL does not open it again),
// the Refer a Friend dialog, signing out, and the greeting's first name.

export const TABS = ['history', 'applications', 'dips', 'shared'] as const;
export type DashboardTab = (typeof TABS)[number];
/** Opening a DIP again within this window is ignored (a double click opens it once). */
export const MODAL_OPEN_THROTTLE_MS = 500;
/** The URL query is cleared this long after a modal closes, so its closing animation runs first. */
export const MODAL_CLEAR_DELAY_MS = 100;

/** Whose DIP the modal shows: the owner's own, or one shared with them. */
export type DipModalContext = 'owner' | 'shared';

/** The URL's query, as far as the page reads it. */
type Query = Pick<URLSearchParams, 'get'>;

/** The query keys that open a DIP's modal. */
const DIP_MODAL_KEYS = ['dipId', 'modal', 'context', 'shared'] as const;

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

// ---- the page's own state ------------------------------------------------------------------------

export interface DashboardState {
  signingOut: boolean;
  referOpen: boolean;
  /** The DIP modal was closed and shows closed while its query waits to be cleared from the URL. */
  modalClosing: boolean;
  /** The DIP a loaded URL asked to open although it has auto-opened before: not opened again. */
  notReopened: string | null;
  /** When a DIP was last opened (ms since the epoch); 0 before any. */
  lastOpenedAt: number;
}

export type DashboardAction =
  | { kind: 'signOutStarted' }
  | { kind: 'signOutEnded' }
  | { kind: 'referOpened' }
  | { kind: 'referClosed' }
  | { kind: 'dipOpened'; at: number }
  | { kind: 'dipClosing' }
  | { kind: 'dipClosed' };

/**
 * The state a page loaded with `query` starts in: /refer lands with ?refer=1, which opens the Refer
 * a Friend dialog at once; a DIP the URL asks to open (modal=1) is not opened when it auto-opened
 * before in this tab (`autoOpens` decides, see firstAutoOpen).
 */
export function initialDashboardState(query: Query, autoOpens: (dipId: string) => boolean): DashboardState {
  const dipId = query.get('dipId');
  const asksToOpen = Boolean(dipId) && query.get('modal') === '1';
  return {
    signingOut: false,
    referOpen: query.get('refer') === '1',
    modalClosing: false,
    notReopened: dipId && asksToOpen && !autoOpens(dipId) ? dipId : null,
    lastOpenedAt: 0,
  };
}

export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.kind) {
    case 'signOutStarted':
      return { ...state, signingOut: true };
    case 'signOutEnded':
      return { ...state, signingOut: false };
    case 'referOpened':
      return { ...state, referOpen: true };
    case 'referClosed':
      return { ...state, referOpen: false };
    case 'dipOpened':
      // A DIP opened by hand opens even if the URL the page was loaded with was not re-opened.
      return { ...state, modalClosing: false, notReopened: null, lastOpenedAt: action.at };
    case 'dipClosing':
      return { ...state, modalClosing: true };
    case 'dipClosed':
      return { ...state, modalClosing: false };
  }
}

/** Whether View DIP at `now` opens the DIP: not within MODAL_OPEN_THROTTLE_MS of the last one. */
export const mayOpenDip = (state: DashboardState, now: number) =>
  now - state.lastOpenedAt >= MODAL_OPEN_THROTTLE_MS;

// ---- what the URL says ---------------------------------------------------------------------------

/** The tab ?tab= selects; older names of the history tab still select it, anything else is history. */
export function tabFrom(value: string | null): DashboardTab {
  if (value === 'searches' || value === 'search-history') return 'history';
  return (TABS as readonly string[]).includes(value ?? '') ? (value as DashboardTab) : 'history';
}

/** The DIP the URL names and whose modal would show it. */
export function dipFrom(query: Query): { dipId: string | null; context: DipModalContext } {
  return { dipId: query.get('dipId'), context: query.get('shared') === '1' ? 'shared' : 'owner' };
}

/** The modal shows the URL's DIP unless it is closing or is the one the loaded URL did not re-open. */
export function isDipModalOpen(state: DashboardState, query: Query): boolean {
  const dipId = query.get('dipId');
  return Boolean(dipId) && query.get('modal') === '1' && !state.modalClosing && dipId !== state.notReopened;
}

// ---- the URL each act leads to (a new query; the one given is left as it is) --------------------

/** The history tab is the URL without ?tab=. */
export function withTab(query: URLSearchParams, tab: string): URLSearchParams {
  const next = new URLSearchParams(query);
  if (tab === 'history') next.delete('tab');
  else next.set('tab', tab);
  return next;
}

/** The URL that opens a DIP's modal: the owner's (context=owner) or a shared one (shared=1). */
export function withDipModal(
  query: URLSearchParams,
  dipId: string,
  context: DipModalContext,
): URLSearchParams {
  const next = new URLSearchParams(query);
  next.set('dipId', dipId);
  next.set('modal', '1');
  if (context === 'owner') {
    next.set('context', 'owner');
    next.delete('shared');
  } else {
    next.set('shared', '1');
    next.delete('context');
  }
  return next;
}

export function withoutDipModal(query: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const key of DIP_MODAL_KEYS) next.delete(key);
  return next;
}

export function withoutRefer(query: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(query);
  next.delete('refer');
  return next;
}
