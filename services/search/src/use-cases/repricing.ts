import {
  type LoanOffer,
  type LoanType,
  type RepricedOffer,
  type SearchRepricing,
  searchPayloadSchemas,
} from '@lsp/contracts';
import { searchPanel } from '../engine';
import type { Panel } from '../panel/schema';

/** How a saved search's offers move from one panel to another. */
export interface RepricedComparison {
  /** An offer from a product that offered nothing before. */
  gainOffer: boolean;
  /** An offer from a product that offers nothing now. */
  loseOffer: boolean;
  /** How many products offer now that did not before, and the other way round. */
  offersGained: number;
  offersLost: number;
  betterBest: boolean;
  worseBest: boolean;
  before: LoanOffer | null;
  after: LoanOffer | null;
}

const productKey = (offer: LoanOffer) => `${offer.LenderId}/${offer.ProductId}`;

/** The results list's order: the larger net loan, then the lower rate. Negative when `a` is better. */
function compareOffers(a: LoanOffer, b: LoanOffer): number {
  return b.NetLoan - a.NetLoan || a.InterestRate - b.InterestRate;
}

/** Compares the offers of one search on two panels (each list in the results list's order, best first). */
export function compareOffersLists(before: LoanOffer[], after: LoanOffer[]): RepricedComparison {
  const was = new Set(before.map(productKey));
  const now = new Set(after.map(productKey));
  const bestBefore = before[0] ?? null;
  const bestAfter = after[0] ?? null;
  const order = bestBefore && bestAfter ? compareOffers(bestAfter, bestBefore) : 0;
  const offersGained = [...now].filter((key) => !was.has(key)).length;
  const offersLost = [...was].filter((key) => !now.has(key)).length;
  return {
    gainOffer: offersGained > 0,
    loseOffer: offersLost > 0,
    offersGained,
    offersLost,
    betterBest: bestAfter !== null && (bestBefore === null || order < 0),
    worseBest: bestBefore !== null && (bestAfter === null || order > 0),
    before: bestBefore,
    after: bestAfter,
  };
}

/**
 * A saved search run again on two panels. Null when its stored form no longer passes today's
 * validation (a rule tightened since): it cannot be re-priced honestly.
 */
export function repriceSavedSearch(
  search: { loan_type: LoanType; search_data: Record<string, unknown> },
  before: Panel,
  after: Panel,
): RepricedComparison | null {
  const parsed = searchPayloadSchemas[search.loan_type].safeParse(search.search_data);
  if (!parsed.success) return null;
  const run = (panel: Panel) => searchPanel(search.loan_type, parsed.data as never, panel).offers;
  return compareOffersLists(run(before), run(after));
}

/** Whether a panel change moved a search's offers at all (what is recorded and published). */
export const repricingChanged = (moved: RepricedComparison) =>
  moved.gainOffer || moved.loseOffer || moved.betterBest || moved.worseBest;

const offerSummary = (offer: LoanOffer | null): RepricedOffer | null =>
  offer && {
    lenderName: offer.LenderName,
    productName: offer.ProductName,
    netLoan: offer.NetLoan,
    interestRate: offer.InterestRate,
  };

/** The record of a change, as the dashboard shows it and search.repriced carries it. */
export function repricingOf(
  moved: RepricedComparison,
  versions: { panelVersion: string; previousVersion: string },
  repricedAt: Date,
): SearchRepricing {
  return {
    ...versions,
    marker: moved.gainOffer ? 'New offers' : 'Terms changed',
    bestBefore: offerSummary(moved.before),
    bestAfter: offerSummary(moved.after),
    offersGained: moved.offersGained,
    offersLost: moved.offersLost,
    betterBest: moved.betterBest,
    repricedAt: repricedAt.toISOString(),
  };
}
