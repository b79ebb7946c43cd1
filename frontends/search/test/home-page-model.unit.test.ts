import type { PendingLoanResults } from '@lsp/contracts';
import {
  type HomeAction,
  type HomeState,
  formKey,
  homeReducer,
  initialHomeState,
  resultsArea,
  shownFromPending,
  waitingReadiness,
} from '../src/home/home-page-model';
import type { SearchOutcome } from '../src/home/search-flow';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const offers: PendingLoanResults['results'] = [{ LenderName: 'A', NetLoan: 100000, GrossLoan: 110000 }];
const values = { projectName: 'Mill Lane', hasViewedProperty: true, agreedPurchasePrice: false };
const held: PendingLoanResults = {
  results: offers,
  formData: { projectName: 'Held' },
  userData: { name: 'Ann', email: 'ann@example.com' },
  timestamp: T0,
  loanType: 'bridging',
  lendabilityScore: { score: 62, tips: ['Own a property'] },
  searchRunId: 'run-held',
};
const toast = { title: 'Search completed successfully', variant: 'success' as const };
const shown: SearchOutcome = {
  kind: 'shown',
  results: offers,
  formData: values,
  searchId: 'search-1',
  searchRunId: 'run-1',
  userId: 'u1',
  toast,
  lendabilityScore: null,
};

const run = (actions: HomeAction[], from: HomeState = initialHomeState) => actions.reduce(homeReducer, from);

describe('the home page model', () => {
  it('starts with no loan type, no form and nothing below it', () => {
    expect(initialHomeState.loanType).toBeNull();
    expect(resultsArea(initialHomeState)).toEqual({ kind: 'empty' });
  });

  it('mounts a fresh, empty form on each loan type chosen', () => {
    const development = homeReducer(initialHomeState, { kind: 'loan-type-chosen', loanType: 'development' });
    expect(development.formSeed).toEqual({ key: 1, values: null });
    expect(formKey(development)).toBe('development-1');
    const again = homeReducer(development, { kind: 'loan-type-chosen', loanType: 'development' });
    expect(formKey(again)).toBe('development-2');
    expect(formKey(homeReducer(again, { kind: 'loan-type-chosen', loanType: 'bridging' }))).toBe(
      'bridging-3',
    );
  });

  it('shows a signed-in search’s results once it settles, replacing the last ones', () => {
    const chosen = homeReducer(initialHomeState, { kind: 'loan-type-chosen', loanType: 'development' });
    const running = homeReducer(chosen, { kind: 'search-started' });
    expect(running.running).toBe(true);
    expect(resultsArea(running)).toEqual({ kind: 'searching' });

    const settled = homeReducer(running, {
      kind: 'search-settled',
      loanType: 'development',
      outcome: shown,
      held: null,
    });
    expect(settled.running).toBe(false);
    expect(settled.results).toEqual({
      searchId: 'search-1',
      searchRunId: 'run-1',
      loanType: 'development',
      formData: values,
      results: offers,
      lendabilityScore: null,
    });
    expect(resultsArea(settled)).toEqual({ kind: 'results', results: settled.results });

    const next = homeReducer(settled, { kind: 'search-started' });
    expect(next.results).toBeNull();
  });

  it('asks an anonymous visitor for the lead first, with the form’s readiness answers', () => {
    const asked = homeReducer(initialHomeState, {
      kind: 'lead-asked',
      search: { loanType: 'bridging', values },
    });
    expect(asked.leadOpen).toBe(true);
    expect(waitingReadiness(asked.waiting)).toEqual({
      hasViewedProperty: true,
      ownsProperty: false,
      agreedPurchasePrice: false,
    });
    expect(waitingReadiness(null)).toBeNull();

    const dismissed = homeReducer(asked, { kind: 'lead-dismissed' });
    expect(dismissed).toMatchObject({ leadOpen: false, waiting: null });
  });

  it('keeps the waiting values while the lead’s search runs, and drops them once it settles', () => {
    const given = run([
      { kind: 'lead-asked', search: { loanType: 'bridging', values } },
      { kind: 'lead-given' },
      { kind: 'search-started' },
    ]);
    expect(given).toMatchObject({
      leadOpen: false,
      running: true,
      waiting: { loanType: 'bridging', values },
    });

    const sentToSignUp = homeReducer(given, {
      kind: 'search-settled',
      loanType: 'bridging',
      outcome: { kind: 'create-account', toast },
      held: null,
    });
    expect(sentToSignUp).toMatchObject({ running: false, waiting: null, results: null, pending: null });
    expect(resultsArea(sentToSignUp)).toEqual({ kind: 'empty' });
  });

  it('closes the overlay on a failed search and leaves the page ready to search again', () => {
    const failed = run([
      { kind: 'loan-type-chosen', loanType: 'bridging' },
      { kind: 'lead-asked', search: { loanType: 'bridging', values } },
      { kind: 'lead-given' },
      { kind: 'search-started' },
      {
        kind: 'search-settled',
        loanType: 'bridging',
        outcome: { kind: 'failed', toast: { title: 'Search failed', variant: 'error' } },
        held: null,
      },
    ]);
    expect(failed).toMatchObject({
      running: false,
      waiting: null,
      results: null,
      pending: null,
      loanType: 'bridging',
    });
    expect(formKey(failed)).toBe('bridging-1');

    const retried = run(
      [
        { kind: 'search-started' },
        { kind: 'search-settled', loanType: 'bridging', outcome: shown, held: null },
      ],
      failed,
    );
    expect(resultsArea(retried).kind).toBe('results');
  });

  it('shows the verify gate for results held for verification', () => {
    const gated = run([
      { kind: 'search-started' },
      {
        kind: 'search-settled',
        loanType: 'bridging',
        outcome: { kind: 'held-for-verification', toast },
        held,
      },
    ]);
    expect(gated.pending).toBe(held);
    expect(resultsArea(gated)).toEqual({ kind: 'verify-gate', pending: held });

    const dismissed = homeReducer(gated, { kind: 'pending-dismissed' });
    expect(resultsArea(dismissed)).toEqual({ kind: 'empty' });
  });

  it('shows the gate over earlier results while results are held, and the results again without them', () => {
    const withResults = run([
      { kind: 'search-started' },
      { kind: 'search-settled', loanType: 'development', outcome: shown, held: null },
    ]);
    const announced = homeReducer(withResults, { kind: 'pending-read', entry: held });
    expect(resultsArea(announced).kind).toBe('verify-gate');
    const expired = homeReducer(announced, { kind: 'pending-read', entry: null });
    expect(resultsArea(expired).kind).toBe('results');
  });

  it('unlocks held results: their type and form values, the results, and no gate', () => {
    const gated = run([
      { kind: 'loan-type-chosen', loanType: 'development' },
      { kind: 'pending-read', entry: held },
    ]);
    const unlocked = homeReducer(gated, { kind: 'pending-unlocked', entry: held });
    expect(unlocked.loanType).toBe('bridging');
    expect(unlocked.formSeed).toEqual({ key: 2, values: { projectName: 'Held' } });
    expect(unlocked.pending).toBeNull();
    expect(unlocked.results).toEqual(shownFromPending(held));
    expect(unlocked.results).toEqual({
      loanType: 'bridging',
      formData: { projectName: 'Held' },
      results: offers,
      searchRunId: 'run-held',
      lendabilityScore: { score: 62, tips: ['Own a property'] },
    });
    expect(shownFromPending({ ...held, lendabilityScore: undefined }).lendabilityScore).toBeNull();

    const saved = homeReducer(unlocked, { kind: 'unlocked-search-saved', searchId: 'search-9' });
    expect(saved.results?.searchId).toBe('search-9');
  });

  it('drops a saved id that arrives when no results are shown any more', () => {
    const running = run([{ kind: 'pending-unlocked', entry: held }, { kind: 'search-started' }]);
    expect(homeReducer(running, { kind: 'unlocked-search-saved', searchId: 'search-9' })).toBe(running);
  });
});
