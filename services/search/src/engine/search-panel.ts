import type { DeclinedLender, LoanOffer, LoanType, SearchPayloadByType } from '@lsp/contracts';
import type { Panel, Product } from '../panel/schema';
import { sizeBridgingLoan } from './bridging';
import { sizeCommercialLoan } from './commercial';
import type { LenderInfo, SizingResult } from './common';
import { sizeDevelopmentLoan } from './development';

export interface PanelSearchResult {
  panelVersion: string;
  /** Offers, best net loan first (the results list's default order). */
  offers: LoanOffer[];
  /** One entry per lender with a product of this loan type that made no offer, with its reasons. */
  declined: DeclinedLender[];
  lendersSearched: number;
  /** Lenders on the panel that do not lend this type at all: not declines, but counted. */
  lendersWithoutProduct: number;
  productsConsidered: number;
}

function sizeProduct<T extends LoanType>(
  loanType: T,
  payload: SearchPayloadByType[T],
  product: Product,
  lender: LenderInfo,
): SizingResult {
  switch (product.loanType) {
    case 'development':
      return sizeDevelopmentLoan(payload as SearchPayloadByType['development'], product, lender);
    case 'bridging':
      return sizeBridgingLoan(payload as SearchPayloadByType['bridging'], product, lender);
    case 'commercial':
      return sizeCommercialLoan(payload as SearchPayloadByType['commercial'], product, lender);
  }
}

/**
 * Every lender on the panel sizes the deal with each of its products of this loan type. A lender with
 * several products may make several offers; a lender with products of this type none of which fits is
 * listed once in `declined` with the reason from each product, so "why not lender X?" always has an
 * answer. Lenders that do not lend this type at all are only counted.
 */
export function searchPanel<T extends LoanType>(
  loanType: T,
  payload: SearchPayloadByType[T],
  panel: Panel,
): PanelSearchResult {
  const offers: LoanOffer[] = [];
  const declined: DeclinedLender[] = [];
  let productsConsidered = 0;
  let lendersWithoutProduct = 0;
  for (const lender of panel.lenders) {
    const products = lender.products.filter((product) => product.loanType === loanType);
    if (products.length === 0) {
      lendersWithoutProduct += 1;
      continue;
    }
    const reasons: string[] = [];
    let offered = false;
    for (const product of products) {
      productsConsidered += 1;
      const result = sizeProduct(loanType, payload, product, lender);
      if (result.ok) {
        offers.push(result.offer);
        offered = true;
      } else {
        reasons.push(products.length > 1 ? `${product.name}: ${result.reason}` : result.reason);
      }
    }
    if (!offered)
      declined.push({
        lender: lender.name,
        lenderId: lender.id,
        productId: products.length === 1 ? products[0].id : undefined,
        reason: reasons.join('; '),
      });
  }
  offers.sort((a, b) => b.NetLoan - a.NetLoan || a.InterestRate - b.InterestRate);
  return {
    panelVersion: panel.version,
    offers,
    declined,
    lendersSearched: panel.lenders.length,
    lendersWithoutProduct,
    productsConsidered,
  };
}

/** Lowest annual rate among the offers, for the search.completed event. */
export function bestRateOf(offers: readonly LoanOffer[]): number | null {
  return offers.length ? Math.min(...offers.map((o) => o.InterestRate)) : null;
}
