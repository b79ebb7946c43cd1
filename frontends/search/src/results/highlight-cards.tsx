import { formatCurrency } from '@lsp/contracts';
import { selectHighlights } from './highlights';
import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';
import { lenderTitle, ratePm, roce } from './offer-format';

/** 'Top Loan Highlights': the four cards picked from the offers on show. */
export function HighlightCards({ offers, loanType }: { offers: LoanOffer[]; loanType: LoanType }) {
  const highlights = selectHighlights(offers, loanType);
  if (highlights.length === 0) return null;
  return (
    <section aria-labelledby="highlights-title" className="sr-highlights">
      <h3 id="highlights-title" className="sr-section-title">
        Top Loan Highlights
      </h3>
      <ul className="sr-highlights__grid">
        {highlights.map((highlight) => {
          const value =
            highlight.kind === 'lowestInterestRate'
              ? ratePm(highlight.offer)
              : formatCurrency(highlight.value);
          const returnOnCapital = loanType === 'commercial' ? null : roce(highlight.offer);
          return (
            <li key={highlight.kind} className={`sr-highlight sr-highlight--${highlight.kind}`}>
              <p className="sr-highlight__title">{highlight.title}</p>
              <p className="sr-highlight__value">{value}</p>
              <p className="sr-highlight__lender">{lenderTitle(highlight.offer)}</p>
              {returnOnCapital !== null && <p className="sr-highlight__roce">ROCE {returnOnCapital}</p>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
