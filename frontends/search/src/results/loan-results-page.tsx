import { STORAGE_KEYS, formatCurrency } from '@lsp/contracts';
import { Button, Card, RequireSession, buttonClass, useToast, Fact } from '@lsp/ui';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { readLoanOffers, type LoanOffer } from '../shared/loan-offer';
import { loanResultsFromHistory, loanResultsHistoryState } from './loan-results-history';
import { LOAN_TYPE_INFO } from '../shared/loan-type';
import { storePendingApplication } from '../application/pending-application';
import { clearPendingResults, readPendingResults } from '../shared/pending-results';
import { searchSummary } from '../saved-searches/saved-search';
import { browserStorage } from '../shared/storage-keys';
import { DEAL_WITHOUT_RUN, SendDealButton } from './offer-actions';
import { ShareOfferDialog } from '../deal-share/share-offer-dialog';
import { lenderTitle } from './offer-format';
import { ResultsPanel } from './results-panel';

function LoanResults() {
  const navigate = useNavigate();
  const location = useLocation();
  const { toast } = useToast();
  // Read once: the entry and the lead flag are removed from storage right after (one-shot). Back to
  // this page finds the results its history entry kept when they were first shown.
  const [loaded] = useState(() => {
    const kept = loanResultsFromHistory(location.state);
    if (kept) return { pending: kept, leadCaptured: true, fromHistory: true };
    const storage = browserStorage();
    return {
      pending: readPendingResults(storage),
      leadCaptured: storage.getItem(STORAGE_KEYS.leadInfoCaptured) === 'true',
      fromHistory: false,
    };
  });
  const { pending, leadCaptured, fromHistory } = loaded;

  useEffect(() => {
    if (fromHistory) return;
    if (!pending) {
      toast({
        title: 'No results found',
        description: 'Please complete a new loan search.',
        variant: 'info',
      });
      navigate('/', { replace: true });
      return;
    }
    if (!leadCaptured) {
      navigate('/results-gate', { replace: true });
      return;
    }
    const storage = browserStorage();
    clearPendingResults(storage);
    storage.removeItem(STORAGE_KEYS.leadInfoCaptured);
    navigate(`${location.pathname}${location.search}`, {
      replace: true,
      state: loanResultsHistoryState(pending),
    });
    // Runs once, on the first showing: the history entry it writes must not run it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending, leadCaptured, fromHistory, navigate, toast]);

  const offers = useMemo(
    () => (pending ? readLoanOffers(pending.results, pending.formData, pending.loanType) : []),
    [pending],
  );
  const [sharing, setSharing] = useState<LoanOffer | null>(null);
  if (!pending || !leadCaptured) return null;
  const summary = searchSummary(pending.formData);

  const remember = (offer: LoanOffer) =>
    storePendingApplication(
      browserStorage(),
      { formData: pending.formData, selectedLoan: offer.raw, loanType: pending.loanType },
      Date.now(),
    );
  const actions = (offer: LoanOffer) => (
    <>
      <Button
        size="sm"
        variant="primary"
        aria-label={`Apply now with ${lenderTitle(offer)}`}
        onClick={() => {
          remember(offer);
          navigate(`/dip/${pending.loanType}/1`);
        }}
      >
        Apply Now
      </Button>
      <Button
        size="sm"
        variant="secondary"
        aria-label={`Share ${lenderTitle(offer)}`}
        onClick={() =>
          pending.searchRunId
            ? setSharing(offer)
            : toast({ title: 'Error', description: DEAL_WITHOUT_RUN, variant: 'error' })
        }
      >
        Share
      </Button>
      <SendDealButton
        offer={offer}
        lender={lenderTitle(offer)}
        loanType={pending.loanType}
        loanIndex={offers.indexOf(offer)}
        searchRunId={pending.searchRunId}
      />
    </>
  );

  return (
    <div className="ui-container sr-page ui-stack">
      <h1 className="sr-page-title">Your {LOAN_TYPE_INFO[pending.loanType].title} Results</h1>
      <Card title="Search summary">
        <dl className="sr-summary">
          <Fact label={summary.propertyValueLabel} value={formatCurrency(summary.propertyValue)} />
          <Fact label="GDV" value={formatCurrency(summary.gdv)} />
          <Fact
            label="Loan term"
            value={summary.loanTermMonths === null ? '—' : `${summary.loanTermMonths} months`}
          />
        </dl>
      </Card>
      <ResultsPanel
        offers={offers}
        loanType={pending.loanType}
        formData={pending.formData}
        renderActions={actions}
        onDetails={(offer) => {
          remember(offer);
          navigate('/application');
        }}
        title="Lender Offers"
      />
      {sharing && pending.searchRunId && (
        <ShareOfferDialog
          open
          onClose={() => setSharing(null)}
          offer={sharing}
          lender={lenderTitle(sharing)}
          loanType={pending.loanType}
          searchRunId={pending.searchRunId}
        />
      )}
      <Card
        title="Ready to Apply?"
        subtitle="Pick an offer and press Apply Now to start your Decision in Principle, or start a new search to compare other scenarios."
      >
        <div className="ui-row">
          <Link to="/" className={buttonClass('secondary')}>
            New Search
          </Link>
        </div>
      </Card>
    </div>
  );
}

export function LoanResultsPage() {
  return (
    <RequireSession>
      <LoanResults />
    </RequireSession>
  );
}
