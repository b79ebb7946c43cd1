import { formatCurrency, formatUkDate } from '@lsp/contracts';
import {
  Alert,
  Button,
  Card,
  PageLoading,
  RequireSession,
  buttonClass,
  useToast,
  ApiError,
  Fact,
} from '@lsp/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { fetchSearchResult } from '../shared/search-api';
import { labelOf } from '../search-form/options';
import { ADVISOR_EMAIL, ADVISOR_PHONE } from '../shared/advisor-contact';
import { readLoanOffers } from '../shared/loan-offer';
import { readSavedSearch, searchSummary } from './saved-search';
import { SavedSearchIdContext } from '../shared/saved-search-context';
import { ResultsPanel } from '../results/results-panel';
import { OffersTabs, RepricingNotice } from './saved-search-repricing';

const formatDate = (value: string | null): string => formatUkDate(value, 'long');

function SearchResult({ id }: { id: string }) {
  const { toast } = useToast();
  // GET /api/search-result/{id}; a 401 goes to login.
  const query = useQuery({ queryKey: ['/api/search-result', id], queryFn: () => fetchSearchResult(id) });
  const view = useMemo(() => (query.data ? readSavedSearch(query.data, id) : null), [query.data, id]);
  const offers = useMemo(
    () => (view ? readLoanOffers(view.results, view.formData, view.loanType ?? undefined) : []),
    [view],
  );

  const header = (
    <div className="sr-page-actions ui-row">
      <Link to="/dashboard" className={buttonClass('secondary', 'sm')}>
        Back to Dashboard
      </Link>
      <Link to="/" className={buttonClass('primary', 'sm')}>
        New Search
      </Link>
      <Button
        size="sm"
        variant="ghost"
        onClick={() =>
          toast({
            title: 'Coming soon',
            description: 'Saving results as a PDF is coming soon.',
            variant: 'info',
          })
        }
      >
        Save PDF
      </Button>
    </div>
  );

  if (query.isPending) return <PageLoading label="Loading search results..." />;
  if (query.isError || !view) {
    const status =
      query.error instanceof ApiError
        ? query.error.status
        : (query.error as { status?: number } | null)?.status;
    return (
      <div className="ui-container sr-page ui-stack">
        <Alert
          variant="danger"
          title={status === 403 ? 'Access denied' : 'Failed to fetch search result'}
          live
        >
          {status === 403 ? 'This search belongs to another account.' : 'Please try again in a moment.'}
        </Alert>
        <div>
          <Link to="/dashboard" className={buttonClass('primary')}>
            Back to Dashboard
          </Link>
        </div>
      </div>
    );
  }

  const summary = searchSummary(view.formData);
  const loanType = view.loanType ?? 'development';
  // A lender panel change that moved this search's offers: the saved offers beside today's.
  const repricing = query.data?.repricing ?? null;
  const saved =
    offers.length === 0 ? (
      <Card title="No results in this search" subtitle="Run a new search to see current lender offers.">
        <Link to="/" className={buttonClass('primary')}>
          Try a New Search
        </Link>
      </Card>
    ) : (
      <SavedSearchIdContext.Provider value={view.id}>
        <ResultsPanel
          offers={offers}
          loanType={loanType}
          formData={view.formData}
          searchId={view.id}
          searchRunId={view.searchRunId ?? undefined}
          title="Result options"
        />
      </SavedSearchIdContext.Provider>
    );
  return (
    <div className="ui-container sr-page ui-stack">
      <h1 className="sr-page-title">Saved Search Results</h1>
      {header}
      <Card title="Search summary" headingLevel={2}>
        <dl className="sr-summary">
          <Fact label="Date" value={formatDate(view.createdAt)} />
          <Fact label="Location" value={summary.location ? labelOf(summary.location) : '—'} />
          <Fact label={summary.propertyValueLabel} value={formatCurrency(summary.propertyValue)} />
          <Fact label="Lender results" value={view.results.length} />
        </dl>
      </Card>
      {repricing && <RepricingNotice repricing={repricing} />}
      {repricing ? (
        <OffersTabs
          searchId={view.id}
          loanType={loanType}
          formData={view.formData}
          repricing={repricing}
          savedCount={offers.length}
          saved={saved}
        />
      ) : (
        saved
      )}
      <Card title="Speak to an Advisor" subtitle="Talk a deal through with one of our finance specialists.">
        <Button
          variant="secondary"
          onClick={() =>
            toast({
              title: 'Speak to an Advisor',
              description: `Call ${ADVISOR_PHONE} or email ${ADVISOR_EMAIL}.`,
              variant: 'info',
            })
          }
        >
          Contact an advisor
        </Button>
      </Card>
    </div>
  );
}

export function SearchResultPage() {
  const { id = '' } = useParams();
  return (
    <RequireSession>
      <SearchResult id={id} />
    </RequireSession>
  );
}
