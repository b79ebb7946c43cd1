import type {
  BridgingSearch,
  DeclinedLender,
  LoanType,
  SearchRunResponse,
  SearchSummary,
} from '@lsp/contracts';
import { bridgingSecurity } from '../engine';

export type DeclinedReasonCount = SearchSummary['declinedByReason'][number];

/** Declined lenders grouped by reason, most common first: "why did 20 lenders say no?" at a glance. */
export function countDeclinedByReason(declined: readonly DeclinedLender[]): DeclinedReasonCount[] {
  const counts = new Map<string, number>();
  for (const entry of declined) counts.set(entry.reason, (counts.get(entry.reason) ?? 0) + 1);
  return [...counts]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

const OPTION_NOUN: Record<LoanType, string> = {
  development: 'development finance option',
  bridging: 'bridging loan option',
  commercial: 'commercial finance option',
};

export const NO_RESULTS_MESSAGE = 'No loan results found for your criteria';

export function searchMessage(loanType: LoanType, resultCount: number): string {
  if (resultCount === 0) return NO_RESULTS_MESSAGE;
  return `Found ${resultCount} ${OPTION_NOUN[loanType]}${resultCount === 1 ? '' : 's'}`;
}

export type BridgingDebugInfo = NonNullable<SearchRunResponse['debugInfo']>;

/**
 * What the bridging search did with the purchase costs (the figure borrowers most often query): what
 * arrived, what the sizing used (only a purchase has purchase costs), the cost base of the deal and the
 * use case that sized it.
 */
export function bridgingDebugInfo(payload: BridgingSearch): BridgingDebugInfo {
  const security = bridgingSecurity(payload);
  const buying = payload.ownOrPurchase === 'Purchasing';
  return {
    purchaseCostsReceived: payload.purchaseCosts ?? null,
    purchaseCostsSentToAPI: buying ? (payload.purchaseCosts ?? 0) : 0,
    totalProjectCost: Math.round(security.costBase),
    endpointUsed: `bridging/${payload.bridgingType}`,
  };
}
