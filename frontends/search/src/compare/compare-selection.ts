import { COMPARE_LIMIT } from '@lsp/contracts';
import { isSameDeal, type LoanOffer } from '../shared/loan-offer';

export { COMPARE_LIMIT };

export function isSelectedForCompare(selected: readonly LoanOffer[], offer: LoanOffer): boolean {
  return selected.some((item) => isSameDeal(item, offer));
}

/** Once three are selected every other deal's compare toggle is disabled. */
export function isCompareDisabled(selected: readonly LoanOffer[], offer: LoanOffer): boolean {
  return selected.length >= COMPARE_LIMIT && !isSelectedForCompare(selected, offer);
}

/** Adds or removes a deal; adding beyond the limit leaves the selection unchanged. */
export function toggleCompare(selected: readonly LoanOffer[], offer: LoanOffer): LoanOffer[] {
  if (isSelectedForCompare(selected, offer)) return selected.filter((item) => !isSameDeal(item, offer));
  if (selected.length >= COMPARE_LIMIT) return [...selected];
  return [...selected, offer];
}

export function compareButtonLabel(count: number): string {
  return `Compare ${count} ${count === 1 ? 'Deal' : 'Deals'}`;
}
