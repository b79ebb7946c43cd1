// What a lender panel change did to a saved search, in words: the dashboard's Search History and the
// saved search's page (/search-results/{id}) both say it this way. Type-only imports besides the
// format helpers, so a page (or a unit test) can take it without every schema.
import type { RepricedOffer, SearchRepricing } from '../search/events';
import { DASH, formatCurrency, formatInterestAnnual, formatUkDate } from './format';

/** The saved search's page says this above its offers once a panel change has moved them. */
export const REPRICING_NOTICE_TITLE = 'Lender terms have changed since you saved this search';

/** Shown for a side of the change that had no offer at all. */
export const NO_OFFER_TEXT = 'no offer';

/** "Lender, Product: £350,000 net at 7.25% a year"; "no offer" when there was none. */
export function repricedOfferText(offer: RepricedOffer | null | undefined): string {
  if (!offer) return NO_OFFER_TEXT;
  const who = [offer.lenderName, offer.productName].map((part) => part?.trim()).filter(Boolean);
  const rate = formatInterestAnnual(offer.interestRate);
  const terms = `${formatCurrency(offer.netLoan)} net at ${rate === DASH ? rate : `${rate} a year`}`;
  return who.length > 0 ? `${who.join(', ')}: ${terms}` : terms;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "2 offers gained", "1 offer lost": only the counts that are not zero. */
export function repricingCounts(repricing: Pick<SearchRepricing, 'offersGained' | 'offersLost'>): string[] {
  const counts: string[] = [];
  if (repricing.offersGained > 0)
    counts.push(plural(repricing.offersGained, 'offer gained', 'offers gained'));
  if (repricing.offersLost > 0) counts.push(plural(repricing.offersLost, 'offer lost', 'offers lost'));
  return counts;
}

export interface RepricingSummary {
  marker: SearchRepricing['marker'];
  /** The best offer when the search was saved (or last re-priced), in words. */
  before: string;
  /** The best offer on today's panel, in words. */
  after: string;
  /** The non-zero counts of offers gained and lost. */
  counts: string[];
  /** The best offer got better: a larger net loan, or the same at a lower rate. */
  betterBest: boolean;
  /** When the change was worked out, en-GB (26/11/2026). */
  repricedOn: string;
}

export function repricingSummary(repricing: SearchRepricing): RepricingSummary {
  return {
    marker: repricing.marker,
    before: repricedOfferText(repricing.bestBefore),
    after: repricedOfferText(repricing.bestAfter),
    counts: repricingCounts(repricing),
    betterBest: repricing.betterBest,
    repricedOn: formatUkDate(repricing.repricedAt),
  };
}
