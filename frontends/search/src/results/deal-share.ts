// A deal share: a link to one loan offer (`/shared-deal/{token}`) that shows whoever opens it the
// offer, the sharer's name and note. Send Deal emails one to each recipient; Share makes one for a
// social network. The request names the search run and the offer's lender and product: the server
// shares its own record of that offer, never the figures the browser holds.
import type { DealShareChannel } from '@lsp/contracts';
import { callApi } from '@lsp/ui';
import type { LoanOffer } from '../lib/loan-offer';
import type { LoanType } from '../lib/loan-type';

/** What the two deal-share dialogs are opened with: the offer, its lender's name, the loan type. */
export interface DealShareDialogProps {
  open: boolean;
  onClose: () => void;
  offer: LoanOffer;
  lender: string;
  loanType: LoanType;
  /** The search run the offer came from (the search answer's SearchRunId). */
  searchRunId: string;
}

/** POST /api/referrals/deal-share for `offer`, to one recipient's email or for one network. */
export function createDealShare(
  target: { referralEmail: string } | { channel: Exclude<DealShareChannel, 'email'> },
  {
    referrerId,
    offer,
    loanType,
    searchRunId,
    note,
  }: { referrerId: string; offer: LoanOffer; loanType: LoanType; searchRunId: string; note: string },
) {
  const { LenderId, ProductId } = offer.raw;
  return callApi('shareDeal', {
    body: {
      ...target,
      referrerId,
      loanData: JSON.stringify(offer.raw),
      searchRunId,
      ...(typeof LenderId === 'string' ? { lenderId: LenderId } : {}),
      ...(typeof ProductId === 'string' ? { productId: ProductId } : {}),
      loanType,
      note: note.trim() || undefined,
    },
  });
}
