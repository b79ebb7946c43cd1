import type { LeadForm, PendingLoanResults } from '@lsp/contracts';
import {
  DASHBOARD_QUERY_KEYS,
  LendabilityScoreCard,
  PENDING_RESULTS_EVENT,
  RadioCards,
  useSession,
  useToast,
  type SessionUser,
  startJourney,
} from '@lsp/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { fetchSessionUser, postLead, runLoanSearch, saveSearch } from '../shared/search-api';
import { LeadCaptureModal } from '../leads/lead-capture-modal';
import { ProgressOverlay } from './progress-overlay';
import { RecentSearches } from '../history/recent-searches';
import { VerifyEmailGate } from '../leads/verify-email-gate';
import { BridgingForm } from '../search-form/bridging-form';
import { CommercialForm } from '../search-form/commercial-form';
import { DevelopmentForm } from '../search-form/development-form';
import type { SearchFormProps } from '../search-form/search-form-frame';
import { useSearchHistory } from '../history/use-search-history';
import { LOAN_TYPES, LOAN_TYPE_INFO, type LoanType } from '../shared/loan-type';
import { readLoanOffers } from '../shared/loan-offer';
import { clearPendingResults, readFreshPendingResults } from '../shared/pending-results';
import { runSearchFlow, type SearchFlowDeps } from './search-flow';
import { browserStorage } from '../shared/storage-keys';
import { SavedSearchIdContext } from '../shared/saved-search-context';
import { ResultsPanel } from '../results/results-panel';
import { formKey, homeReducer, initialHomeState, resultsArea, waitingReadiness } from './home-page-model';

const FORMS: Record<LoanType, (props: SearchFormProps) => React.JSX.Element> = {
  development: DevelopmentForm,
  bridging: BridgingForm,
  commercial: CommercialForm,
};

function HomeSearching() {
  return (
    <section className="sr-searching ui-card" aria-live="polite">
      <span className="ui-spinner__circle" aria-hidden="true" />
      <div>
        <p className="sr-searching__title">Searching for the best rates...</p>
        <p className="ui-muted">We&apos;re comparing offers from hundreds of lenders</p>
      </div>
    </section>
  );
}

export function HomePage() {
  const session = useSession();
  const { toast } = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();

  const [state, dispatch] = useReducer(homeReducer, initialHomeState);
  const { loanType, pending, running, results } = state;
  // Resolved by the progress overlay when it has played through; a shown search waits for it.
  const overlayDone = useRef<(() => void) | null>(null);
  const history = useSearchHistory(loanType ?? 'development');

  // Unlocking held results: show them, drop the stored entry, and file the search under the account
  // when someone is signed in (an anonymous search was never saved).
  const unlockPending = useCallback(
    async (entry: PendingLoanResults, user: SessionUser | null) => {
      dispatch({ kind: 'pending-unlocked', entry });
      clearPendingResults(browserStorage());
      if (!user) return;
      try {
        const searchId = await saveSearch({
          userId: user.id,
          loanType: entry.loanType,
          searchData: entry.formData,
          // The server saves its own record of the run this id names; the held offers are not sent as truth.
          apiResponse: { success: true, data: { Results: entry.results, SearchRunId: entry.searchRunId } },
        });
        dispatch({ kind: 'unlocked-search-saved', searchId });
        void queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEYS.allSearches });
      } catch (error) {
        console.error('Failed to save the verified search', error);
      }
    },
    [queryClient],
  );

  // Pending results on load: /?verified=true shows them (and the flag leaves the address bar);
  // otherwise a fresh entry shows the verify gate and an expired one is deleted.
  const verified = searchParams.get('verified') === 'true';
  useEffect(() => {
    const entry = readFreshPendingResults(browserStorage(), Date.now());
    if (verified) {
      // The entry leaves storage at once: removing the flag re-runs this effect, which must not find
      // it again and show the gate (or save the search a second time).
      clearPendingResults(browserStorage());
      if (entry) void fetchSessionUser().then((user) => unlockPending(entry, user));
      else
        toast({
          title: 'No results found',
          description: 'Please complete a new loan search.',
          variant: 'info',
        });
      const next = new URLSearchParams(searchParams);
      next.delete('verified');
      setSearchParams(next, { replace: true });
      return;
    }
    dispatch({ kind: 'pending-read', entry });
    // Runs once per arrival with or without the flag; the params change it makes must not re-run it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [verified]);

  // A verified user who signs in while results are held gets them at once: the gate is for people
  // who have not confirmed their address yet. The shell announces held results one second after login.
  const sessionUser = session.status === 'authenticated' ? session.user : null;
  useEffect(() => {
    if (pending && sessionUser?.verified) void unlockPending(pending, sessionUser);
  }, [pending, sessionUser, unlockPending]);
  useEffect(() => {
    const onPending = () =>
      dispatch({ kind: 'pending-read', entry: readFreshPendingResults(browserStorage(), Date.now()) });
    window.addEventListener(PENDING_RESULTS_EVENT, onPending);
    return () => window.removeEventListener(PENDING_RESULTS_EVENT, onPending);
  }, []);

  // New results scroll into view, so keyboard and phone users land on them.
  const resultsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (results) resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [results]);

  const deps: SearchFlowDeps = {
    runSearch: runLoanSearch,
    postLead,
    currentUser: async () => (session.refresh ? await session.refresh() : await fetchSessionUser()),
    saveSearch,
    storage: browserStorage(),
    now: () => Date.now(),
    log: (message, error) => console.error(message, error),
    startJourney: () => void startJourney(),
  };

  const runSearch = async (type: LoanType, values: Record<string, unknown>, lead: LeadForm | null) => {
    dispatch({ kind: 'search-started' });
    const overlayFinished = new Promise<void>((resolve) => {
      overlayDone.current = resolve;
    });
    const outcome = await runSearchFlow(deps, type, values, lead);
    history.reload();
    // A failure closes the overlay at once; anything else lets it play through first.
    if (outcome.kind !== 'failed') await overlayFinished;
    const held =
      outcome.kind === 'held-for-verification' ? readFreshPendingResults(browserStorage(), Date.now()) : null;
    dispatch({ kind: 'search-settled', loanType: type, outcome, held });
    toast(outcome.toast);
    if (outcome.kind === 'shown')
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEYS.allSearches });
    else if (outcome.kind === 'create-account') navigate('/create-account');
  };

  const onSearch = (values: Record<string, unknown>) => {
    if (!loanType) return;
    if (session.status === 'authenticated') {
      void runSearch(loanType, values, null);
      return;
    }
    dispatch({ kind: 'lead-asked', search: { loanType, values } });
  };

  const onLead = (lead: LeadForm) => {
    dispatch({ kind: 'lead-given' });
    const waiting = state.waiting;
    if (!waiting) return;
    void runSearch(waiting.loanType, waiting.values, { ...lead, phone: lead.phone || undefined });
  };

  const selectType = (type: LoanType) => dispatch({ kind: 'loan-type-chosen', loanType: type });

  const renderRecent = useCallback(
    (load: (data: Record<string, unknown>) => void) => (
      <RecentSearches
        items={history.items}
        onSelect={(item) => {
          load(item.data);
          toast({ title: 'Previous search loaded', variant: 'success' });
        }}
        onRemove={history.remove}
        onClear={history.clear}
      />
    ),
    [history.items, history.remove, history.clear, toast],
  );

  const offers = useMemo(
    () => (results ? readLoanOffers(results.results, results.formData, results.loanType) : []),
    [results],
  );
  const Form = loanType ? FORMS[loanType] : null;
  const area = resultsArea(state);

  return (
    <div className="sr-home">
      <section className="sr-hero">
        <div className="ui-container">
          <h1 className="sr-hero__title">Find the Perfect Loan for Your Investment</h1>
          <p className="sr-hero__subtitle">
            Search specialist UK lenders at once for development finance, bridging loans and commercial
            mortgages. Get instant quotes and compare rates side by side.
          </p>
        </div>
      </section>

      {/* While the overlay shows, the page behind it can be neither focused nor clicked. */}
      <div className="ui-container sr-home__body" inert={running}>
        <RadioCards
          name="loanType"
          legend="Choose Your Loan Type"
          className="sr-loan-types"
          options={LOAN_TYPES.map((type) => ({
            value: type,
            title: LOAN_TYPE_INFO[type].title,
            description: LOAN_TYPE_INFO[type].description,
          }))}
          value={loanType}
          onChange={selectType}
        />

        {Form && loanType && (
          <Form
            key={formKey(state)}
            initialValues={state.formSeed.values}
            onSearch={onSearch}
            busy={running}
            renderRecent={renderRecent}
          />
        )}

        <div className="sr-home__results" ref={resultsRef}>
          {area.kind === 'searching' && <HomeSearching />}
          {area.kind === 'verify-gate' && (
            <VerifyEmailGate
              count={area.pending.results.length}
              email={area.pending.userData?.email}
              lendabilityScore={area.pending.lendabilityScore ?? null}
              onNewSearch={() => {
                clearPendingResults(browserStorage());
                dispatch({ kind: 'pending-dismissed' });
              }}
            />
          )}
          {area.kind === 'results' && area.results.searchId && (
            <p className="ui-muted sr-saved-note">
              Saved to your dashboard.{' '}
              <Link to={`/search-results/${area.results.searchId}`}>View this saved search</Link>
            </p>
          )}
          {area.kind === 'results' && area.results.lendabilityScore && (
            <LendabilityScoreCard
              className="sr-lendability"
              score={area.results.lendabilityScore.score}
              tips={area.results.lendabilityScore.tips}
            />
          )}
          {area.kind === 'results' && (
            <SavedSearchIdContext.Provider value={area.results.searchId}>
              <ResultsPanel
                offers={offers}
                loanType={area.results.loanType}
                formData={area.results.formData}
                searchId={area.results.searchId}
                searchRunId={area.results.searchRunId}
              />
            </SavedSearchIdContext.Provider>
          )}
        </div>
      </div>

      {running && <ProgressOverlay onComplete={() => overlayDone.current?.()} />}
      <LeadCaptureModal
        open={state.leadOpen}
        onClose={() => dispatch({ kind: 'lead-dismissed' })}
        onSubmit={onLead}
        readiness={waitingReadiness(state.waiting)}
      />
    </div>
  );
}
