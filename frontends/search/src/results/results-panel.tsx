import { FILTER_INTEREST_MAX_PERCENT, FILTER_INTEREST_STEP_PERCENT, FILTER_MONEY_STEP } from '@lsp/contracts';
import { Badge, Button, Card, TextField, useSession } from '@lsp/ui';
import { useMemo, useReducer, type ChangeEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { compareButtonLabel, isCompareDisabled, isSelectedForCompare } from '../compare/compare-selection';
import { loanResultsHistoryState } from './loan-results-history';
import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';
import { SORT_BUTTONS, resultsCountLabel, sortDirectionFor, type FilterState } from './results-view';
import { BreakdownModal } from './breakdown-modal';
import { CompareDialog } from '../compare/compare-dialog';
import { HighlightCards } from './highlight-cards';
import { LenderCard } from './lender-card';
import { GetDipButton, SendDealButton } from './offer-actions';
import { lenderTitle } from './offer-format';
import {
  initialResultsPanelState,
  resultsBadges,
  resultsPanelReducer,
  shownOffers,
} from './results-panel-model';

interface ResultsPanelProps {
  offers: LoanOffer[];
  loanType: LoanType;
  formData: Record<string, unknown>;
  /** Card actions besides Compare and Details; Get DIP and Send Deal unless a page says otherwise. */
  renderActions?: (offer: LoanOffer) => ReactNode;
  /** The saved search these offers came from (Get DIP needs it). */
  searchId?: string;
  /** The search run these offers came from (Send Deal needs it). */
  searchRunId?: string;
  /** What Details does; the breakdown modal unless a page says otherwise. */
  onDetails?: (offer: LoanOffer) => void;
  title?: string;
}

const arrows: Record<'asc' | 'desc' | 'none', string> = { asc: '↑', desc: '↓', none: '' };
const directionWords: Record<'asc' | 'desc' | 'none', string> = {
  asc: 'ascending',
  desc: 'descending',
  none: 'not sorted',
};

/** Get DIP and Send Deal, the card actions unless a page says otherwise. */
export function defaultOfferActions(
  offer: LoanOffer,
  context: { loanType: LoanType; searchId?: string; searchRunId?: string; loanIndex: number },
) {
  const lender = lenderTitle(offer);
  return (
    <>
      <GetDipButton offer={offer} lender={lender} {...context} />
      <SendDealButton offer={offer} lender={lender} {...context} />
    </>
  );
}

/**
 * The way from a results list to applying and sharing: the results gate (the investor profile and the
 * lead), then /loan-results with Apply Now and Share. The results go with the navigation.
 */
function ContinueToApply({
  offers,
  loanType,
  formData,
  searchRunId,
}: {
  offers: LoanOffer[];
  loanType: LoanType;
  formData: Record<string, unknown>;
  searchRunId?: string;
}) {
  const navigate = useNavigate();
  const { status } = useSession();
  if (status !== 'authenticated') return null;
  const carry = () =>
    navigate('/results-gate', {
      state: loanResultsHistoryState({
        results: offers.map((offer) => offer.raw),
        formData,
        userData: null,
        timestamp: Date.now(),
        loanType,
        ...(searchRunId ? { searchRunId } : {}),
      }),
    });
  return (
    <Card
      title="Ready to Apply?"
      subtitle="Tell us a little about your investing, then apply to a lender or share an offer on WhatsApp, Facebook or LinkedIn."
      headingLevel={3}
      className="sr-continue-to-apply"
    >
      <Button variant="brand" onClick={carry}>
        Continue to Apply &amp; Share
      </Button>
    </Card>
  );
}

/** The results list: counts and badges, filters, the sort cycle, highlights, cards, compare and breakdown. */
export function ResultsPanel({
  offers,
  loanType,
  formData,
  renderActions,
  searchId,
  searchRunId,
  onDetails,
  title = 'Search Results',
}: ResultsPanelProps) {
  const [state, dispatch] = useReducer(resultsPanelReducer, initialResultsPanelState);
  const { filters, showFilters, sort, compact, selected } = state;

  const shown = useMemo(() => shownOffers(offers, { filters, sort }), [offers, filters, sort]);
  const { filtered, sorted } = resultsBadges(state);

  if (offers.length === 0) {
    return (
      <section className="sr-results sr-empty ui-card" aria-labelledby="results-empty-title">
        <h2 id="results-empty-title" className="sr-section-title">
          No Results Found
        </h2>
        <p className="ui-muted">Try adjusting your search criteria to find more loan options.</p>
      </section>
    );
  }

  /** Every filter is a number from 0 up, held as typed in `filters[key]`. */
  const filterInput = (key: keyof FilterState) => ({
    type: 'number',
    min: 0,
    value: filters[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      dispatch({ kind: 'filter-typed', key, value: event.target.value }),
  });

  return (
    <section className="sr-results" aria-labelledby="results-title">
      <header className="sr-results__header">
        <div>
          <h2 id="results-title" className="sr-results__title">
            {title}
          </h2>
          <p className="sr-results__count" aria-live="polite">
            {resultsCountLabel(shown.length, offers.length)}
            {filtered && (
              <Badge variant="info" className="sr-results__badge">
                Filtered
              </Badge>
            )}
            {sorted && (
              <Badge variant="brand" className="sr-results__badge">
                Sorted
              </Badge>
            )}
          </p>
        </div>
        <div className="sr-results__controls">
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={showFilters}
            aria-controls="results-filters"
            onClick={() => dispatch({ kind: 'filters-toggled' })}
          >
            Filters
          </Button>
          <div className="sr-segmented" role="group" aria-label="Sort by">
            {SORT_BUTTONS.map(({ key, label, sorts }) => {
              const direction = sortDirectionFor(sort, key);
              return (
                <button
                  key={key}
                  type="button"
                  className={
                    direction === 'none'
                      ? 'sr-segmented__item'
                      : 'sr-segmented__item sr-segmented__item--active'
                  }
                  aria-pressed={direction !== 'none'}
                  aria-label={`Sort by ${sorts}, ${directionWords[direction]}${
                    direction !== 'none' && !sorted ? ' (default order)' : ''
                  }`}
                  onClick={() => dispatch({ kind: 'sort-pressed', key })}
                  data-direction={direction}
                >
                  {label} <span aria-hidden="true">{arrows[direction]}</span>
                </button>
              );
            })}
          </div>
          <div className="sr-segmented" role="group" aria-label="Card layout">
            <button
              type="button"
              className={compact ? 'sr-segmented__item sr-segmented__item--active' : 'sr-segmented__item'}
              aria-pressed={compact}
              onClick={() => dispatch({ kind: 'layout-chosen', compact: true })}
            >
              Compact
            </button>
            <button
              type="button"
              className={!compact ? 'sr-segmented__item sr-segmented__item--active' : 'sr-segmented__item'}
              aria-pressed={!compact}
              onClick={() => dispatch({ kind: 'layout-chosen', compact: false })}
            >
              Expanded
            </button>
          </div>
        </div>
      </header>

      {showFilters && (
        <div id="results-filters" className="sr-filters ui-card" role="group" aria-label="Filters">
          <TextField
            label="Max interest rate (%)"
            inputMode="decimal"
            max={FILTER_INTEREST_MAX_PERCENT}
            step={FILTER_INTEREST_STEP_PERCENT}
            {...filterInput('interestRateMax')}
          />
          <TextField
            label="Min estimated profit (£)"
            inputMode="numeric"
            step={FILTER_MONEY_STEP}
            {...filterInput('profitMin')}
          />
          <TextField
            label="Max deposit (£)"
            inputMode="numeric"
            step={FILTER_MONEY_STEP}
            {...filterInput('depositMax')}
          />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => dispatch({ kind: 'filters-cleared' })}
            disabled={!filtered}
          >
            Clear filters
          </Button>
        </div>
      )}

      <HighlightCards offers={shown} loanType={loanType} />

      {shown.length === 0 ? (
        <div className="sr-empty ui-card">
          <h3 className="sr-section-title">No Results Found</h3>
          <p className="ui-muted">Try adjusting your search criteria to find more loan options.</p>
        </div>
      ) : (
        <ul
          className={compact ? 'sr-lender-grid sr-lender-grid--compact' : 'sr-lender-grid'}
          aria-label="Lender offers"
        >
          {shown.map((offer, index) => (
            <li key={`${lenderTitle(offer)}-${offer.grossLoan}-${offer.interestRate}-${index}`}>
              <LenderCard
                offer={offer}
                loanType={loanType}
                compact={compact}
                selected={isSelectedForCompare(selected, offer)}
                compareDisabled={isCompareDisabled(selected, offer)}
                onToggleCompare={() => dispatch({ kind: 'compare-toggled', offer })}
                onDetails={() => (onDetails ? onDetails(offer) : dispatch({ kind: 'details-opened', offer }))}
                actions={
                  renderActions
                    ? renderActions(offer)
                    : defaultOfferActions(offer, {
                        loanType,
                        searchId,
                        searchRunId,
                        loanIndex: offers.indexOf(offer),
                      })
                }
              />
            </li>
          ))}
        </ul>
      )}

      {!renderActions && (
        <ContinueToApply offers={offers} loanType={loanType} formData={formData} searchRunId={searchRunId} />
      )}

      {selected.length > 0 && (
        <div className="sr-compare-float">
          <Button
            variant="brand"
            size="lg"
            onClick={() => dispatch({ kind: 'compare-open-changed', open: true })}
          >
            {compareButtonLabel(selected.length)}
          </Button>
        </div>
      )}
      <CompareDialog
        open={state.compareOpen}
        onOpenChange={(open) => dispatch({ kind: 'compare-open-changed', open })}
        offers={selected}
        loanType={loanType}
      />
      <BreakdownModal
        offer={state.details}
        loanType={loanType}
        formData={formData}
        onClose={() => dispatch({ kind: 'details-closed' })}
      />
    </section>
  );
}
