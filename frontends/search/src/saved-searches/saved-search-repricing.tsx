// A saved search that a lender panel change re-priced (/search-results/{id}): a notice saying what
// changed (the marker, the best offer before → after, offers gained and lost), and the offers as
// saved beside today's, as two tabs. Today's are the saved form run against the panel active now,
// with the same results components; the saved offers stay as the user saved them.
import { REPRICING_NOTICE_TITLE, repricingSummary } from '@lsp/contracts/src/display/repricing';
import type { SearchRepricing } from '@lsp/contracts/src/search/events';
import { Alert, Badge, Button, DASHBOARD_QUERY_KEYS, Spinner, Tabs, useSession } from '@lsp/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { runLoanSearch, saveSearch } from '../shared/search-api';
import { readLoanOffers } from '../shared/loan-offer';
import { searchRunIdOf } from './saved-search';
import type { LoanType } from '../shared/loan-type';
import {
  type OffersView,
  offersTabLabel,
  todaysOffersKey,
  todaysSaveBody,
  todaysSearchPayload,
} from './todays-offers';
import { ResultsPanel } from '../results/results-panel';
import { SendDealButton } from '../results/offer-actions';
import { lenderTitle } from '../results/offer-format';

/** What changed, in words: the marker is a word in a badge, never a colour alone. */
export function RepricingNotice({ repricing }: { repricing: SearchRepricing }) {
  const summary = repricingSummary(repricing);
  return (
    <Alert variant="info" title={REPRICING_NOTICE_TITLE} className="sr-repricing">
      <p className="sr-repricing__head">
        <Badge variant={summary.marker === 'New offers' ? 'success' : 'neutral'}>{summary.marker}</Badge>
        <span>Changed on {summary.repricedOn}.</span>
      </p>
      <p className="sr-repricing__change">
        <span className="sr-repricing__label">Best offer:</span> <span>{summary.before}</span>{' '}
        <span aria-hidden="true">→</span>
        <span className="ui-visually-hidden">, now</span> <span>{summary.after}</span>
      </p>
      {summary.counts.length > 0 && <p>{summary.counts.join(', ')}</p>}
      <p>
        Your saved offers are kept as you saved them; Today&apos;s offers shows this search on today&apos;s
        panel.
      </p>
    </Alert>
  );
}

interface OffersTabsProps {
  searchId: string;
  loanType: LoanType;
  formData: Record<string, unknown>;
  repricing: SearchRepricing;
  savedCount: number;
  /** The saved offers, as the page shows them without a re-pricing. */
  saved: ReactNode;
}

/** The saved offers and today's, as two tabs; today's search runs when its tab is first opened. */
export function OffersTabs({ searchId, loanType, formData, repricing, savedCount, saved }: OffersTabsProps) {
  const [view, setView] = useState<OffersView>('saved');
  const [opened, setOpened] = useState(false);
  const today = useQuery({
    queryKey: todaysOffersKey(searchId, repricing.panelVersion),
    queryFn: () => runLoanSearch(loanType, todaysSearchPayload(formData)),
    enabled: opened,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const todaysCount = Array.isArray(today.data?.data?.Results) ? today.data.data.Results.length : null;
  const select = (next: string) => {
    setView(next as OffersView);
    if (next === 'today') setOpened(true);
  };
  return (
    <Tabs
      label="Saved and today's offers"
      className="sr-offers-tabs"
      value={view}
      onValueChange={select}
      items={[
        { value: 'saved', label: offersTabLabel('saved', savedCount), content: saved },
        {
          value: 'today',
          label: offersTabLabel('today', todaysCount),
          content: (
            <TodaysOffers
              loanType={loanType}
              formData={formData}
              answer={today.data ?? null}
              pending={today.isPending || today.isFetching}
              failed={today.isError}
              retry={() => void today.refetch()}
            />
          ),
        },
      ]}
    />
  );
}

type SearchAnswer = Awaited<ReturnType<typeof runLoanSearch>>;

function TodaysOffers({
  loanType,
  formData,
  answer,
  pending,
  failed,
  retry,
}: {
  loanType: LoanType;
  formData: Record<string, unknown>;
  answer: SearchAnswer | null;
  pending: boolean;
  failed: boolean;
  retry: () => void;
}) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const results = answer?.data?.Results;
  const offers = useMemo(
    () => (Array.isArray(results) ? readLoanOffers(results, formData, loanType) : []),
    [results, formData, loanType],
  );
  const save = useMutation({
    mutationFn: () => saveSearch(todaysSaveBody(user?.id ?? '', loanType, formData, answer ?? {})),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEYS.allSearches }),
  });

  if (pending && !answer)
    return (
      <div className="ui-row sr-todays__status" role="status">
        <Spinner /> <span>Searching today&apos;s lender panel...</span>
      </div>
    );
  if (failed || !Array.isArray(results))
    return (
      <div role="alert" className="ui-stack sr-todays__status">
        <p>Today&apos;s offers could not be loaded. Please try again.</p>
        <div>
          <Button size="sm" variant="secondary" onClick={retry}>
            Try Again
          </Button>
        </div>
      </div>
    );
  return (
    <div className="ui-stack">
      <div className="sr-todays__save">
        {save.isSuccess ? (
          <p role="status">
            Saved to your dashboard.{' '}
            <Link to={`/search-results/${save.data}`}>View today&apos;s offers as a saved search</Link>
          </p>
        ) : (
          <>
            <p className="ui-muted">
              To get a DIP on one of today&apos;s offers, save them to your dashboard first.
            </p>
            <div>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => save.mutate()}
                loading={save.isPending}
                loadingText="Saving..."
                disabled={!user || offers.length === 0}
              >
                Save today&apos;s offers
              </Button>
            </div>
            <p role="alert" className="sr-todays__error">
              {save.isError ? "Today's offers were not saved. Please try again." : ''}
            </p>
          </>
        )}
      </div>
      <ResultsPanel
        offers={offers}
        loanType={loanType}
        formData={formData}
        title="Today's offers"
        // Not saved yet, so no DIP from here (a DIP is made from the saved copy of an offer).
        renderActions={(offer) => (
          <SendDealButton
            offer={offer}
            lender={lenderTitle(offer)}
            loanType={loanType}
            loanIndex={offers.indexOf(offer)}
            searchRunId={searchRunIdOf(answer) ?? undefined}
          />
        )}
      />
    </div>
  );
}
