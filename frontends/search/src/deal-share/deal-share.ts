// A deal share: a link to one loan offer (`/shared-deal/{token}`) that shows whoever opens it the
// offer, the sharer's name and note. Send Deal emails one to each recipient; Share makes one for a
// social network. The request names the search run and the offer (`dealShareBody`).
import { callApi } from '@lsp/ui';
import { type DealShareTarget, dealShareBody } from './deal-share-body';
import type { LoanOffer } from '../shared/loan-offer';
import type { LoanType } from '../shared/loan-type';

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
export function createDealShare(target: DealShareTarget, share: Parameters<typeof dealShareBody>[1]) {
  return callApi('shareDeal', { body: dealShareBody(target, share) });
}
