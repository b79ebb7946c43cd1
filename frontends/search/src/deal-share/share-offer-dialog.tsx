// Share on a loan result (WhatsApp, Facebook and LinkedIn links open their sharing pages;
// a failure says 'Share Failed - Unable to create share link. Please try again.'). Each button makes a deal link
// like Send Deal's (`/shared-deal/{token}`: the offer, the sharer's name and the note; POST
// /api/referrals/deal-share with `channel` and no recipient) and opens the network's sharing page with
// it. The window is opened at the click, so popup blockers allow it, and pointed at
// the sharing page once the link exists; if the browser refused the window, the dialog offers the link.
import type { DealShareChannel } from '@lsp/contracts';
import {
  Button,
  Dialog,
  EMAIL_NOT_VERIFIED,
  isVerificationRequired,
  useSession,
  useToast,
  TextAreaField,
} from '@lsp/ui';
import { useState } from 'react';
import type { LoanOffer } from '../shared/loan-offer';
import { createDealShare, type DealShareDialogProps } from './deal-share';

type Network = Exclude<DealShareChannel, 'email'>;

const NETWORKS: Array<{ id: Network; label: string }> = [
  { id: 'whatsapp', label: 'WhatsApp' },
  { id: 'facebook', label: 'Facebook' },
  { id: 'linkedin', label: 'LinkedIn' },
];

/** The network's sharing page for a deal link (WhatsApp takes the text, the others the link alone). */
export function socialShareUrl(network: Network, dealUrl: string, offer: LoanOffer, lender: string) {
  const rate = offer.interestRate === null ? '' : ` at ${(offer.interestRate * 100).toFixed(2)}%`;
  const text = `A loan offer from ${lender}${rate} on LoanSearch UK: ${dealUrl}`;
  switch (network) {
    case 'whatsapp':
      return `https://wa.me/?text=${encodeURIComponent(text)}`;
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(dealUrl)}`;
    case 'linkedin':
      return `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(dealUrl)}`;
  }
}

export function ShareOfferDialog({
  open,
  onClose,
  offer,
  lender,
  loanType,
  searchRunId,
}: DealShareDialogProps) {
  const { user } = useSession();
  const { toast } = useToast();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState<Network | null>(null);
  const [ready, setReady] = useState<{ label: string; href: string } | null>(null);

  const share = async (network: Network, label: string) => {
    // Opened now, while the click still counts as the person's: a window opened after the request is
    // blocked by most browsers. It stays blank until the link exists.
    const popup = window.open('', '_blank');
    setBusy(network);
    setReady(null);
    const answer = user?.id
      ? await createDealShare(
          { channel: network },
          { referrerId: user.id, offer, loanType, searchRunId, note },
        ).catch(() => null)
      : null;
    setBusy(null);
    if (!answer?.ok) {
      popup?.close();
      toast({
        title: 'Share Failed',
        description:
          answer && isVerificationRequired(answer.data)
            ? EMAIL_NOT_VERIFIED
            : 'Unable to create share link. Please try again.',
        variant: 'error',
      });
      return;
    }
    const dealUrl = new URL(`/shared-deal/${answer.data.signupToken}`, window.location.origin).toString();
    const href = socialShareUrl(network, dealUrl, offer, lender);
    if (popup && !popup.closed) {
      popup.opener = null;
      popup.location.href = href;
    } else {
      setReady({ label, href });
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Share this offer"
      description={`Share a link to the ${lender} offer: whoever opens it sees the offer, your name and your note.`}
    >
      <div className="ui-stack">
        <TextAreaField
          label="Note (optional)"
          id="share-offer-note"
          rows={2}
          maxLength={1000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        <div className="ui-row">
          {NETWORKS.map(({ id, label }) => (
            <Button
              key={id}
              variant="secondary"
              loading={busy === id}
              loadingText="Creating link..."
              disabled={busy !== null}
              onClick={() => void share(id, label)}
            >
              {label}
            </Button>
          ))}
        </div>
        {ready && (
          <p role="status">
            Your link is ready:{' '}
            <a href={ready.href} target="_blank" rel="noopener noreferrer">
              Open {ready.label}
            </a>
          </p>
        )}
      </div>
    </Dialog>
  );
}
