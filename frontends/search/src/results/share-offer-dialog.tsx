// Share on a loan result (spec §7: WhatsApp, Facebook and LinkedIn links open their sharing pages).
// Only signed-in users reach /loan-results; the shared link is the product's home page with the
// offer's headline figures in the text.
import { Dialog, buttonClass } from '@lsp/ui';
import { formatCurrency } from '@lsp/contracts';
import type { LoanOffer } from '../lib/loan-offer';

export function shareLinks(offer: LoanOffer, lender: string, origin: string) {
  const url = `${origin}/`;
  const rate = offer.interestRate === null ? '' : ` at ${(offer.interestRate * 100).toFixed(2)}%`;
  const text = `I found a ${formatCurrency(offer.netLoan)} loan from ${lender}${rate} on LoanSearch UK: ${url}`;
  return {
    whatsapp: `https://wa.me/?text=${encodeURIComponent(text)}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`,
  };
}

export function ShareOfferDialog({
  open,
  onClose,
  offer,
  lender,
}: {
  open: boolean;
  onClose: () => void;
  offer: LoanOffer;
  lender: string;
}) {
  const links = shareLinks(offer, lender, window.location.origin);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Share this offer"
      description={lender}
    >
      <div className="ui-row">
        <a
          className={buttonClass('secondary')}
          href={links.whatsapp}
          target="_blank"
          rel="noopener noreferrer"
        >
          WhatsApp
        </a>
        <a
          className={buttonClass('secondary')}
          href={links.facebook}
          target="_blank"
          rel="noopener noreferrer"
        >
          Facebook
        </a>
        <a
          className={buttonClass('secondary')}
          href={links.linkedin}
          target="_blank"
          rel="noopener noreferrer"
        >
          LinkedIn
        </a>
      </div>
    </Dialog>
  );
}
