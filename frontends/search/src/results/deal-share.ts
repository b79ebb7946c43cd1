// A deal share: a link to one loan offer (`/shared-deal/{token}`) that shows whoever opens it the
// offer, the sharer's name and note. Send Deal emails one to each recipient; Share makes one for a
// social network.
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
}

/** POST /api/referrals/deal-share for `offer`, to one recipient's email or for one network. */
export function createDealShare(
  target: { referralEmail: string } | { channel: Exclude<DealShareChannel, 'email'> },
  {
    referrerId,
    offer,
    loanType,
    note,
  }: { referrerId: string; offer: LoanOffer; loanType: LoanType; note: string },
) {
  return callApi('shareDeal', {
    body: {
      ...target,
      referrerId,
      loanData: JSON.stringify(offer.raw),
      loanType,
      note: note.trim() || undefined,
    },
  });
}
