import type { LeadForm, PendingLendabilityScore, PendingLoanResults } from '@lsp/contracts';
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
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { fetchSessionUser, postLead, runLoanSearch, saveSearch } from '../api/search-api';
import { LeadCaptureModal, type ReadinessAnswers } from '../components/lead-capture-modal';
import { ProgressOverlay } from '../components/progress-overlay';
import { RecentSearches } from '../components/recent-searches';
import { VerifyEmailGate } from '../components/verify-email-gate';
import { BridgingForm } from '../forms/bridging-form';
import { CommercialForm } from '../forms/commercial-form';
import { DevelopmentForm } from '../forms/development-form';
import type { SearchFormProps } from '../forms/search-form-frame';
import { useSearchHistory } from '../hooks/use-search-history';
import { LOAN_TYPES, LOAN_TYPE_INFO, type LoanType } from '../lib/loan-type';
import { readLoanOffers } from '../lib/loan-offer';
import { clearPendingResults, readFreshPendingResults } from '../lib/pending-results';
import { runSearchFlow, type SearchFlowDeps } from '../lib/search-flow';
import { browserStorage } from '../lib/storage-keys';
import { SavedSearchIdContext } from '../lib/saved-search-context';
import { ResultsPanel } from '../results/results-panel';

const FORMS: Record<LoanType, (props: SearchFormProps) => React.JSX.Element> = {
  development: DevelopmentForm,
  bridging: BridgingForm,
  commercial: CommercialForm,
};

interface ShownResults {
  /** Set when the search was saved to the signed-in user's account. */
  searchId?: string;
  /** The Lendability Score the lead was given (anonymous searches only), shown above the offers. */
  lendabilityScore?: PendingLendabilityScore | null;
  /** The search run the offers came from (Send Deal shares the server's record of an offer). */
  searchRunId?: string;
  loanType: LoanType;
  formData: Record<string, unknown>;
  results: PendingLoanResults['results'];
}

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

  const [loanType, setLoanType] = useState<LoanType | null>(null);
  const [formSeed, setFormSeed] = useState<{ key: number; values: Record<string, unknown> | null }>({
    key: 0,
    values: null,
  });
  const [results, setResults] = useState<ShownResults | null>(null);
  const [pending, setPending] = useState<PendingLoanResults | null>(null);
  const [running, setRunning] = useState(false);
  const [leadOpen, setLeadOpen] = useState(false);
  // The form values waiting for the lead dialog; cleared once the search has run.
  const remembered = useRef<{ loanType: LoanType; values: Record<string, unknown> } | null>(null);
  const overlayDone = useRef<(() => void) | null>(null);
  const history = useSearchHistory(loanType ?? 'development');

  // Unlocking held results: show them, drop the stored entry, and file the search under the account
  // when someone is signed in (an anonymous search was never saved).
  const unlockPending = useCallback(
    async (entry: PendingLoanResults, user: SessionUser | null) => {
      setLoanType(entry.loanType);
      setFormSeed((seed) => ({ key: seed.key + 1, values: entry.formData }));
      setResults({
        loanType: entry.loanType,
        formData: entry.formData,
        results: entry.results,
        searchRunId: entry.searchRunId,
        lendabilityScore: entry.lendabilityScore ?? null,
      });
      setPending(null);
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
        setResults((shown) => (shown ? { ...shown, searchId } : shown));
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
    setPending(entry);
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
    const onPending = () => setPending(readFreshPendingResults(browserStorage(), Date.now()));
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
    setResults(null);
    setPending(null);
    setRunning(true);
    const overlayFinished = new Promise<void>((resolve) => {
      overlayDone.current = resolve;
    });
    const outcome = await runSearchFlow(deps, type, values, lead);
    remembered.current = null;
    history.reload();
    if (outcome.kind === 'failed') {
      setRunning(false);
      toast(outcome.toast);
      return;
    }
    await overlayFinished;
    setRunning(false);
    toast(outcome.toast);
    if (outcome.kind === 'shown') {
      setResults({
        searchId: outcome.searchId,
        searchRunId: outcome.searchRunId,
        loanType: type,
        formData: outcome.formData,
        results: outcome.results,
        lendabilityScore: outcome.lendabilityScore,
      });
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEYS.allSearches });
    } else if (outcome.kind === 'held-for-verification') {
      setPending(readFreshPendingResults(browserStorage(), Date.now()));
    } else {
      navigate('/create-account');
    }
  };

  const onSearch = (values: Record<string, unknown>) => {
    if (!loanType) return;
    if (session.status === 'authenticated') {
      void runSearch(loanType, values, null);
      return;
    }
    remembered.current = { loanType, values };
    setLeadOpen(true);
  };

  const onLead = (lead: LeadForm) => {
    setLeadOpen(false);
    const waiting = remembered.current;
    if (!waiting) return;
    void runSearch(waiting.loanType, waiting.values, { ...lead, phone: lead.phone || undefined });
  };

  const selectType = (type: LoanType) => {
    setLoanType(type);
    setFormSeed((seed) => ({ key: seed.key + 1, values: null }));
  };

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
  const readiness: ReadinessAnswers | null = remembered.current
    ? {
        hasViewedProperty: remembered.current.values.hasViewedProperty === true,
        ownsProperty: remembered.current.values.ownsProperty === true,
        agreedPurchasePrice: remembered.current.values.agreedPurchasePrice === true,
      }
    : null;

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
            key={`${loanType}-${formSeed.key}`}
            initialValues={formSeed.values}
            onSearch={onSearch}
            busy={running}
            renderRecent={renderRecent}
          />
        )}

        <div className="sr-home__results" ref={resultsRef}>
          {running && <HomeSearching />}
          {!running && pending && (
            <VerifyEmailGate
              count={pending.results.length}
              email={pending.userData?.email}
              lendabilityScore={pending.lendabilityScore ?? null}
              onNewSearch={() => {
                clearPendingResults(browserStorage());
                setPending(null);
              }}
            />
          )}
          {!running && !pending && results?.searchId && (
            <p className="ui-muted sr-saved-note">
              Saved to your dashboard.{' '}
              <Link to={`/search-results/${results.searchId}`}>View this saved search</Link>
            </p>
          )}
          {!running && !pending && results?.lendabilityScore && (
            <LendabilityScoreCard
              className="sr-lendability"
              score={results.lendabilityScore.score}
              tips={results.lendabilityScore.tips}
            />
          )}
          {!running && !pending && results && (
            <SavedSearchIdContext.Provider value={results.searchId}>
              <ResultsPanel
                offers={offers}
                loanType={results.loanType}
                formData={results.formData}
                searchId={results.searchId}
                searchRunId={results.searchRunId}
              />
            </SavedSearchIdContext.Provider>
          )}
        </div>
      </div>

      {running && <ProgressOverlay onComplete={() => overlayDone.current?.()} />}
      <LeadCaptureModal
        open={leadOpen}
        onClose={() => {
          setLeadOpen(false);
          remembered.current = null;
        }}
        onSubmit={onLead}
        readiness={readiness}
      />
    </div>
  );
}
