import {
  AUTO_OPENED_DIPS_KEY,
  MODAL_OPEN_THROTTLE_MS,
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
} from '../src/dashboard/dashboard-page-model';
import type { DashboardAction, DashboardState } from '../src/dashboard/dashboard-page-model';

/** A session storage of one tab, held in a map. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

const query = (text: string) => new URLSearchParams(text);
const neverOpenedBefore = () => true;
const openedBefore = () => false;
const run = (state: DashboardState, ...actions: DashboardAction[]) => actions.reduce(dashboardReducer, state);

describe('the greeting', () => {
  it('uses the first name, skipping a title', () => {
    expect(greetingName('Alex Morgan')).toBe('Alex');
    expect(greetingName('  Dr. Priya  Shah ')).toBe('Priya');
    expect(greetingName('Mrs Jones')).toBe('Jones');
    expect(greetingName('Mr')).toBe('Mr');
    expect(greetingName('   ')).toBe('');
  });
});

describe('the tab the URL selects', () => {
  it('reads ?tab=, with the older names of the history tab and history for anything else', () => {
    expect(tabFrom('shared')).toBe('shared');
    expect(tabFrom('dips')).toBe('dips');
    expect(tabFrom('searches')).toBe('history');
    expect(tabFrom('search-history')).toBe('history');
    expect(tabFrom('boats')).toBe('history');
    expect(tabFrom(null)).toBe('history');
  });

  it('is history without ?tab=, and every other tab with it', () => {
    expect(withTab(query('tab=dips&highlightDip=d1'), 'history').toString()).toBe('highlightDip=d1');
    expect(withTab(query(''), 'applications').toString()).toBe('tab=applications');
    const before = query('tab=dips');
    withTab(before, 'shared');
    expect(before.toString()).toBe('tab=dips');
  });
});

describe('the DIP modal in the URL', () => {
  it("opens the owner's DIP or a shared one, and closes leaving the rest of the query", () => {
    const owner = withDipModal(query('tab=dips&shared=1'), 'd1', 'owner');
    expect(owner.toString()).toBe('tab=dips&dipId=d1&modal=1&context=owner');
    expect(dipFrom(owner)).toEqual({ dipId: 'd1', context: 'owner' });
    const shared = withDipModal(owner, 'd2', 'shared');
    expect(shared.toString()).toBe('tab=dips&dipId=d2&modal=1&shared=1');
    expect(dipFrom(shared)).toEqual({ dipId: 'd2', context: 'shared' });
    expect(withoutDipModal(shared).toString()).toBe('tab=dips');
    expect(dipFrom(query(''))).toEqual({ dipId: null, context: 'owner' });
  });

  it('shows the modal while the URL asks for it, and not while it closes', () => {
    const url = query('dipId=d1&modal=1&context=owner');
    const state = initialDashboardState(url, neverOpenedBefore);
    expect(state.notReopened).toBeNull();
    expect(isDipModalOpen(state, url)).toBe(true);
    expect(isDipModalOpen(state, query('dipId=d1'))).toBe(false);
    const closing = run(state, { kind: 'dipClosing' });
    expect(isDipModalOpen(closing, url)).toBe(false);
    expect(isDipModalOpen(run(closing, { kind: 'dipClosed' }), url)).toBe(true);
  });

  it('does not open again the DIP a loaded URL opened before, until it is opened by hand', () => {
    const url = query('dipId=d1&modal=1&context=owner');
    const state = initialDashboardState(url, openedBefore);
    expect(state.notReopened).toBe('d1');
    expect(isDipModalOpen(state, url)).toBe(false);
    // Another DIP in the URL (Back to an earlier one) shows.
    expect(isDipModalOpen(state, query('dipId=d2&modal=1'))).toBe(true);
    const viewed = run(state, { kind: 'dipOpened', at: 1_000 });
    expect(isDipModalOpen(viewed, url)).toBe(true);
    // Without modal=1 the URL asks nothing, so nothing is held back.
    expect(initialDashboardState(query('dipId=d1'), openedBefore).notReopened).toBeNull();
  });

  it('opens a DIP once for a double click', () => {
    const start = initialDashboardState(query(''), neverOpenedBefore);
    expect(mayOpenDip(start, Date.now())).toBe(true);
    const opened = run(start, { kind: 'dipClosing' }, { kind: 'dipOpened', at: 10_000 });
    expect(opened.modalClosing).toBe(false);
    expect(mayOpenDip(opened, 10_000 + MODAL_OPEN_THROTTLE_MS - 1)).toBe(false);
    expect(mayOpenDip(opened, 10_000 + MODAL_OPEN_THROTTLE_MS)).toBe(true);
  });
});

describe('a DIP auto-opens once per browser tab', () => {
  it('opens the first time, records it, and not after a reload', () => {
    const storage = memoryStorage({ [AUTO_OPENED_DIPS_KEY]: JSON.stringify(['seen-before']) });
    expect(firstAutoOpen('auto-1', storage)).toBe(true);
    expect(JSON.parse(storage.getItem(AUTO_OPENED_DIPS_KEY) ?? '')).toEqual(['seen-before', 'auto-1']);
    // The same page load decides the same (a re-render); a later load reads the record.
    expect(firstAutoOpen('auto-1', storage)).toBe(true);
    expect(firstAutoOpen('seen-before', storage)).toBe(false);
  });

  it('opens when the storage cannot be read or holds something else', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => undefined,
    };
    expect(firstAutoOpen('auto-2', broken)).toBe(true);
    expect(firstAutoOpen('auto-3', memoryStorage({ [AUTO_OPENED_DIPS_KEY]: '{"not":"a list"}' }))).toBe(true);
  });
});

describe('the Refer a Friend dialog and signing out', () => {
  it('opens at once on ?refer=1 and closes, dropping ?refer from the URL', () => {
    const landed = initialDashboardState(query('refer=1'), neverOpenedBefore);
    expect(landed.referOpen).toBe(true);
    expect(run(landed, { kind: 'referClosed' }).referOpen).toBe(false);
    expect(run(initialDashboardState(query(''), neverOpenedBefore), { kind: 'referOpened' }).referOpen).toBe(
      true,
    );
    expect(withoutRefer(query('refer=1&tab=dips')).toString()).toBe('tab=dips');
  });

  it('is busy while signing out, and not once it has ended', () => {
    const start = initialDashboardState(query(''), neverOpenedBefore);
    expect(start.signingOut).toBe(false);
    const busy = run(start, { kind: 'signOutStarted' });
    expect(busy.signingOut).toBe(true);
    expect(run(busy, { kind: 'signOutEnded' }).signingOut).toBe(false);
  });
});
