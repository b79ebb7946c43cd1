// Get DIP ('DIP creation'): the offer's summary → Create DIP → quote code and valid-until
// → share with estate agents (emails and a message), Copy Link, Download PDF → congratulations.
// The state resets each time the dialog opens. An email failure with a fallback link copies the link
// and shows 'Link Copied' for 3 seconds. The state and its rules are get-dip-dialog-model.ts'; this
// component makes the calls and renders.
import {
  Alert,
  Button,
  Dialog,
  type ApiAnswer,
  type ApiInput,
  apiPath,
  callApi,
  trackShareFunnel,
  useToast,
  Fact,
  TextAreaField,
  refusalToast,
} from '@lsp/ui';
import { DIP_DEFAULT_VALID_HOURS, formatCurrency, formatUkDate } from '@lsp/contracts';
import { useEffect, useReducer, useRef } from 'react';
import type { LoanOffer } from '../shared/loan-offer';
import {
  COPIED_STATE_MS,
  type PdfOutcome,
  canDownloadPdf,
  canShare,
  deliveredTo,
  getDipReducer,
  getDipStep,
  getDipTitle,
  initialGetDipState,
  shareFallback,
  shareRecipients,
} from './get-dip-dialog-model';
import { RecipientEmailsField } from '../shared/recipient-emails';

/**
 * POST /api/online-dip/{dipId}/share. Asked once: sharing asks the dip service about a DIP created a
 * moment ago, so a 404 means there is no such DIP.
 */
function postShare(dipId: string, body: ApiInput<'shareDip'>['body']): Promise<ApiAnswer<'shareDip'>> {
  return callApi('shareDip', { params: { dipId }, body });
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function GetDipDialog({
  open,
  onClose,
  offer,
  lender,
  searchId,
  loanIndex,
}: {
  open: boolean;
  onClose: () => void;
  offer: LoanOffer;
  lender: string;
  searchId: string;
  loanIndex: number;
}) {
  const { toast } = useToast();
  const [state, dispatch] = useReducer(getDipReducer, initialGetDipState);
  const { created, sent, fallback, pdf } = state;
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  const showCopied = () => {
    dispatch({ kind: 'link-copied' });
    clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => dispatch({ kind: 'copied-expired' }), COPIED_STATE_MS);
  };

  const create = async () => {
    dispatch({ kind: 'create-started' });
    try {
      const answer = await callApi('createDip', {
        params: { searchId, loanIndex: String(loanIndex) },
        body: { validHours: DIP_DEFAULT_VALID_HOURS },
      });
      if (!answer.ok) {
        dispatch({ kind: 'create-failed' });
        toast(refusalToast('Error', answer.data, 'Failed to create DIP. Please try again.'));
        return;
      }
      const data = answer.data;
      dispatch({ kind: 'create-succeeded', created: data });
      // A DIP is made with its share link: the funnel starts here.
      trackShareFunnel('share_link_created', { dipId: data.dipId, context: 'owner' });
      toast({
        title: 'DIP Created Successfully',
        description: `Quote Code: ${data.quoteCode}`,
        variant: 'success',
      });
    } catch {
      dispatch({ kind: 'create-failed' });
      toast({ title: 'Error', description: 'Failed to create DIP. Please try again.', variant: 'error' });
    }
  };

  const copyLink = async () => {
    if (!created) return;
    const url = await postShare(created.dipId, { inviteType: 'open' }).then(
      (answer) => (answer.ok && 'url' in answer.data ? answer.data.url : null),
      () => null,
    );
    if (url && (await copy(url))) {
      showCopied();
      toast({ title: 'Link Copied', variant: 'success' });
      trackShareFunnel('share_link_copied', { dipId: created.dipId, context: 'owner' });
    } else toast({ title: 'Copy Failed', description: 'Could not copy link to clipboard', variant: 'error' });
  };

  // A DIP's first PDF renders on demand: the button shows its progress, a 503 (the service stopped
  // waiting while the render goes on) is asked once more, and a failure offers Try again.
  // The toasts are the spec's.
  const download = async () => {
    if (!created || !canDownloadPdf(state)) return;
    dispatch({ kind: 'pdf-started' });
    dispatch({ kind: 'pdf-finished', outcome: await downloadPdf(created.quoteCode) });
  };

  const downloadPdf = async (quoteCode: string): Promise<PdfOutcome> => {
    try {
      const ask = () =>
        fetch(apiPath('downloadDipPdf', { params: { reference: quoteCode } }), { credentials: 'include' });
      let res = await ask();
      if (res.status === 503) res = await ask();
      if (res.status === 401) {
        toast({
          title: 'Authentication Required',
          description: 'Please log in to download PDFs.',
          variant: 'error',
        });
        return 'sign-in-required';
      }
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        toast({
          title: 'PDF Generation Failed',
          description: body?.error ?? 'Could not generate PDF. Please try again.',
          variant: 'error',
        });
        return 'failed';
      }
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `DIP-${quoteCode}.pdf`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      toast({ title: 'Download Started', variant: 'success' });
      return 'downloaded';
    } catch {
      toast({
        title: 'Download Failed',
        description: 'Could not generate PDF. Please check your connection and try again.',
        variant: 'error',
      });
      return 'failed';
    }
  };

  const share = async () => {
    if (!created) return;
    const checked = shareRecipients(state.emails);
    if (!checked.ok) return dispatch({ kind: 'share-refused', emailError: checked.emailError });
    dispatch({ kind: 'share-started' });
    try {
      const answer = await postShare(created.dipId, {
        recipients: checked.recipients,
        message: state.message.trim() || undefined,
      });
      if (!answer.ok) {
        const failure = answer.data;
        if (failure && 'fallback' in failure) {
          dispatch({ kind: 'share-fell-back', fallback: shareFallback(failure) });
          if (await copy(failure.shareUrl)) showCopied();
          return;
        }
        toast({
          title: 'Share creation failed',
          description: failure?.error ?? 'Something went wrong',
          variant: 'error',
        });
        return;
      }
      const results = 'results' in answer.data ? answer.data.results : [];
      dispatch({ kind: 'share-sent', recipients: deliveredTo(results) });
    } catch {
      toast({ title: 'Share creation failed', description: 'Something went wrong', variant: 'error' });
    } finally {
      dispatch({ kind: 'share-settled' });
    }
  };

  const step = getDipStep(state);
  return (
    <Dialog open={open} onClose={onClose} dismissLabel="Close" title={getDipTitle(state)} size="lg">
      {step === 'offer' && (
        <div className="ui-stack">
          <dl className="sr-summary">
            <Fact label="Lender" value={lender} />
            <Fact label="Net loan" value={formatCurrency(offer.netLoan)} />
            <Fact label="Gross loan" value={formatCurrency(offer.grossLoan)} />
            <Fact
              label="Interest rate"
              value={offer.interestRate === null ? '—' : `${(offer.interestRate * 100).toFixed(2)}%`}
            />
          </dl>
          <p className="ui-muted">
            Your Decision in Principle is valid for {DIP_DEFAULT_VALID_HOURS} hours. You can share it with
            estate agents to show you can proceed.
          </p>
          <Button onClick={() => void create()} loading={state.creating} loadingText="Creating DIP...">
            Create DIP
          </Button>
        </div>
      )}
      {step === 'created' && created && (
        <div className="ui-stack">
          <Alert variant="success" title={`Quote Code: ${created.quoteCode}`}>
            Valid until {formatUkDate(created.expiresAt, 'long-time')}
          </Alert>
          <div className="ui-row">
            <Button variant="secondary" onClick={() => void copyLink()}>
              {state.copied ? 'Link Copied' : 'Copy Link'}
            </Button>
            <Button
              variant="secondary"
              loading={pdf === 'working'}
              loadingText="Preparing PDF…"
              onClick={() => void download()}
            >
              Download PDF
            </Button>
          </div>
          <p role="status" className={pdf === 'working' ? 'ui-muted' : 'ui-visually-hidden'}>
            {pdf === 'working'
              ? 'Preparing your PDF. The first download of a DIP can take a few seconds.'
              : ''}
          </p>
          {pdf === 'failed' && (
            <p className="sr-pdf-failed">
              The PDF isn&apos;t ready yet or could not be downloaded.{' '}
              <Button size="sm" variant="link" onClick={() => void download()}>
                Try again
              </Button>
            </p>
          )}
          <h3 className="sr-section-title">Share with estate agents</h3>
          <RecipientEmailsField
            value={state.emails}
            onChange={(emails) => dispatch({ kind: 'emails-changed', emails })}
            error={state.emailError}
          />
          <TextAreaField
            label="Message (optional)"
            id="get-dip-message"
            rows={3}
            maxLength={2000}
            value={state.message}
            onChange={(e) => dispatch({ kind: 'message-changed', message: e.target.value })}
          />
          {fallback && (
            <Alert variant="warning" title="Email Service Unavailable">
              <p>{fallback.text}</p>
              <p>
                <a href={fallback.url}>{fallback.url}</a>
              </p>
            </Alert>
          )}
          {/* Disabled while blank (and while sending). */}
          <Button
            onClick={() => void share()}
            disabled={!canShare(state)}
            loading={state.sending}
            loadingText="Sending..."
          >
            Share DIP
          </Button>
        </div>
      )}
      {step === 'shared' && created && sent && (
        <div className="ui-stack">
          <p>
            Your Decision in Principle {created.quoteCode} was shared with{' '}
            {sent.join(', ') || 'your recipients'}. They will receive an email with a secure link.
          </p>
        </div>
      )}
    </Dialog>
  );
}
