// Get DIP and Send Deal on a lender card (spec §2 dialogs, §4 'DIP creation', §8 messages). Both
// need a signed-in user; Get DIP also needs the search saved to the account (the DIP is made from
// the server's own copy of the offer, found by the saved search's id and the offer's index).
import { Button, useSession, useToast } from '@lsp/ui';
import { Suspense, lazy, useState } from 'react';
import type { LoanType } from '../lib/loan-type';
import type { LoanOffer } from '../lib/loan-offer';

const GetDipDialog = lazy(() => import('./get-dip-dialog.js').then((m) => ({ default: m.GetDipDialog })));
const SendDealDialog = lazy(() =>
  import('./send-deal-dialog.js').then((m) => ({ default: m.SendDealDialog })),
);

export interface OfferActionContext {
  offer: LoanOffer;
  lender: string;
  loanType: LoanType;
  /** The saved search the offer belongs to, when it was saved to the account. */
  searchId?: string;
  /** The offer's position in the search's own list of offers. */
  loanIndex: number;
}

export function GetDipButton({ size = 'sm', ...context }: OfferActionContext & { size?: 'sm' | 'md' }) {
  const { toast } = useToast();
  const { status } = useSession();
  const [open, setOpen] = useState(false);
  const start = () => {
    if (status !== 'authenticated') {
      toast({
        title: 'Authentication Required',
        description: 'Please log in to create a DIP',
        variant: 'error',
      });
      return;
    }
    if (!context.searchId) {
      toast({
        title: 'Error',
        description:
          'This search is not saved to your account yet. Run it again while signed in to create a DIP.',
        variant: 'error',
      });
      return;
    }
    setOpen(true);
  };
  return (
    <>
      <Button size={size} variant="primary" aria-label={`Get DIP for ${context.lender}`} onClick={start}>
        Get DIP
      </Button>
      {open && context.searchId && (
        <Suspense fallback={null}>
          <GetDipDialog {...context} searchId={context.searchId} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

export function SendDealButton({ size = 'sm', ...context }: OfferActionContext & { size?: 'sm' | 'md' }) {
  const { toast } = useToast();
  const { status } = useSession();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size={size}
        variant="secondary"
        aria-label={`Send deal from ${context.lender}`}
        onClick={() =>
          status === 'authenticated'
            ? setOpen(true)
            : toast({
                title: 'Authentication Required',
                description: 'Please log in to send a deal',
                variant: 'error',
              })
        }
      >
        Send Deal
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SendDealDialog {...context} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
