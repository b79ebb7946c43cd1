// Get DIP and Send Deal on a lender card (the dialogs, 'DIP creation' and its messages). Both
// need a signed-in user; Get DIP also needs the search saved to the account (the DIP is made from
// the server's own copy of the offer, found by the saved search's id and the offer's index).
import { Button, useSession, useToast } from '@lsp/ui';
import { useState } from 'react';
import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';

/**
 * A dialog's code, downloaded when it is first opened and kept from then on. A download that fails
 * (a dropped connection, or a deploy of the search pages that replaced their files since this page
 * loaded) rejects `load` and is asked again next time. It is not React.lazy: lazy() hands a failed
 * download to the remote's error boundary, which replaces the whole page, results and all, with
 * 'could not be loaded', and the dialog never opens.
 */
function dialogCode<C>(download: () => Promise<C>) {
  let loaded: C | null = null;
  return {
    get: () => loaded,
    load: async () => (loaded ??= await download()),
  };
}

const getDipCode = dialogCode(() => import('../dip/get-dip-dialog.js').then((m) => m.GetDipDialog));
const sendDealCode = dialogCode(() =>
  import('../deal-share/send-deal-dialog.js').then((m) => m.SendDealDialog),
);

/**
 * A dialog opened from a press: `show` downloads its code (once) and opens it; a failed download says
 * so in a toast ('Send Deal could not be opened'), and the page and its results stay. `Dialog` is the
 * dialog while it is open, null otherwise.
 */
function useDownloadedDialog<C>(code: ReturnType<typeof dialogCode<C>>, what: string) {
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [Dialog, setDialog] = useState<C | null>(code.get);
  const show = () =>
    code.load().then(
      (loaded) => {
        setDialog(() => loaded);
        setOpen(true);
      },
      () =>
        toast({
          title: `${what} could not be opened`,
          description: 'Please check your connection and try again.',
          variant: 'error',
        }),
    );
  return { Dialog: open ? Dialog : null, show, close: () => setOpen(false) };
}

/** Offers with no search run behind them (an old saved search) cannot be shared: the server shares its record. */
export const DEAL_WITHOUT_RUN = 'This offer cannot be shared from here. Run the search again to share it.';

export interface OfferActionContext {
  offer: LoanOffer;
  lender: string;
  loanType: LoanType;
  /** The saved search the offer belongs to, when it was saved to the account. */
  searchId?: string;
  /** The offer's position in the search's own list of offers. */
  loanIndex: number;
  /** The search run the offer came from (Send Deal shares the server's record of it). */
  searchRunId?: string;
}

export function GetDipButton({ size = 'sm', ...context }: OfferActionContext & { size?: 'sm' | 'md' }) {
  const { toast } = useToast();
  const { status } = useSession();
  const dialog = useDownloadedDialog(getDipCode, 'Get DIP');
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
    void dialog.show();
  };
  return (
    <>
      <Button size={size} variant="primary" aria-label={`Get DIP for ${context.lender}`} onClick={start}>
        Get DIP
      </Button>
      {dialog.Dialog && context.searchId && (
        <dialog.Dialog {...context} searchId={context.searchId} open onClose={dialog.close} />
      )}
    </>
  );
}

export function SendDealButton({ size = 'sm', ...context }: OfferActionContext & { size?: 'sm' | 'md' }) {
  const { toast } = useToast();
  const { status } = useSession();
  const dialog = useDownloadedDialog(sendDealCode, 'Send Deal');
  const start = () => {
    if (status !== 'authenticated') {
      toast({
        title: 'Authentication Required',
        description: 'Please log in to send a deal',
        variant: 'error',
      });
      return;
    }
    if (!context.searchRunId) {
      toast({ title: 'Error', description: DEAL_WITHOUT_RUN, variant: 'error' });
      return;
    }
    void dialog.show();
  };
  return (
    <>
      <Button size={size} variant="secondary" aria-label={`Send deal from ${context.lender}`} onClick={start}>
        Send Deal
      </Button>
      {dialog.Dialog && context.searchRunId && (
        <dialog.Dialog {...context} searchRunId={context.searchRunId} open onClose={dialog.close} />
      )}
    </>
  );
}
