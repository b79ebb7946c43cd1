// The body of POST /api/referrals/deal-share (pure: type-only imports, so a unit test takes it
// without CSS). It names the search run and the offer's lender and product: the server shares its own
// record of that offer, never the figures the browser holds.
import type { DealShareChannel } from '@lsp/contracts';
import type { LoanOffer } from '../shared/loan-offer';
import type { LoanType } from '../shared/loan-type';

/** Who a deal share is for: one recipient's email, or a link for one network. */
export type DealShareTarget = { referralEmail: string } | { channel: Exclude<DealShareChannel, 'email'> };

export function dealShareBody(
  target: DealShareTarget,
  {
    referrerId,
    offer,
    loanType,
    searchRunId,
    note,
  }: {
    referrerId: string;
    offer: Pick<LoanOffer, 'raw'>;
    loanType: LoanType;
    searchRunId: string;
    note: string;
  },
) {
  const { LenderId, ProductId } = offer.raw;
  return {
    ...target,
    referrerId,
    loanData: JSON.stringify(offer.raw),
    searchRunId,
    ...(typeof LenderId === 'string' ? { lenderId: LenderId } : {}),
    ...(typeof ProductId === 'string' ? { productId: ProductId } : {}),
    loanType,
    note: note.trim() || undefined,
  };
}
