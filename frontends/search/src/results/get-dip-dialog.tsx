// Get DIP ('DIP creation'): the offer's summary → Create DIP → quote code and valid-until
// → share with estate agents (emails and a message), Copy Link, Download PDF → congratulations.
// The state resets each time the dialog opens. An email failure with a fallback link copies the link
// and shows 'Link Copied' for 3 seconds.
import {
  Alert,
  Button,
  Dialog,
  type ApiAnswer,
  type ApiInput,
  type ApiResult,
  apiPath,
  callApi,
  trackShareFunnel,
  useToast,
  Fact,
  TextAreaField,
  refusalToast,
} from '@lsp/ui';
import { DIP_DEFAULT_VALID_HOURS, formatCurrency, formatUkDate } from '@lsp/contracts';
import { useEffect, useRef, useState } from 'react';
import type { LoanOffer } from '../lib/loan-offer';
import { RecipientEmailsField, invalidEmails, splitEmails } from './recipient-emails';

export const COPIED_STATE_MS = 3000;

type Created = ApiResult<'createDip'>;

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
  const [created, setCreated] = useState<Created | null>(null);
  const [creating, setCreating] = useState(false);
  const [emails, setEmails] = useState('');
  const [message, setMessage] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string[] | null>(null);
  const [fallback, setFallback] = useState<{ url: string; text: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [pdfState, setPdfState] = useState<'idle' | 'working' | 'failed'>('idle');
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  const showCopied = () => {
    setCopied(true);
    clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => setCopied(false), COPIED_STATE_MS);
  };

  const create = async () => {
    setCreating(true);
    try {
      const answer = await callApi('createDip', {
        params: { searchId, loanIndex: String(loanIndex) },
        body: { validHours: DIP_DEFAULT_VALID_HOURS },
      });
      if (!answer.ok) {
        toast(refusalToast('Error', answer.data, 'Failed to create DIP. Please try again.'));
        return;
      }
      const data = answer.data;
      setCreated(data);
      // A DIP is made with its share link: the funnel starts here.
      trackShareFunnel('share_link_created', { dipId: data.dipId, context: 'owner' });
      toast({
        title: 'DIP Created Successfully',
        description: `Quote Code: ${data.quoteCode}`,
        variant: 'success',
      });
    } catch {
      toast({ title: 'Error', description: 'Failed to create DIP. Please try again.', variant: 'error' });
    } finally {
      setCreating(false);
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
    if (!created || pdfState === 'working') return;
    setPdfState('working');
    const ok = await downloadPdf(created.quoteCode);
    setPdfState(ok ? 'idle' : 'failed');
  };

  const downloadPdf = async (quoteCode: string): Promise<boolean> => {
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
        return true;
      }
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        toast({
          title: 'PDF Generation Failed',
          description: body?.error ?? 'Could not generate PDF. Please try again.',
          variant: 'error',
        });
        return false;
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
      return true;
    } catch {
      toast({
        title: 'Download Failed',
        description: 'Could not generate PDF. Please check your connection and try again.',
        variant: 'error',
      });
      return false;
    }
  };

  const share = async () => {
    if (!created) return;
    const list = splitEmails(emails);
    if (list.length === 0) return setEmailError('No Email Addresses');
    const invalid = invalidEmails(list);
    if (invalid.length) return setEmailError(`Invalid Email Format: ${invalid.join(', ')}`);
    setEmailError(null);
    setSending(true);
    try {
      const answer = await postShare(created.dipId, {
        recipients: list,
        message: message.trim() || undefined,
      });
      if (!answer.ok) {
        const failure = answer.data;
        if (failure && 'fallback' in failure) {
          setFallback({ url: failure.shareUrl, text: failure.userMessage || failure.error });
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
      setSent(results.filter((r) => r.success).map((r) => r.email));
    } catch {
      toast({ title: 'Share creation failed', description: 'Something went wrong', variant: 'error' });
    } finally {
      setSending(false);
    }
  };

  const title = sent
    ? 'Congratulations!'
    : created
      ? 'Your Decision in Principle'
      : 'Get a Decision in Principle';
  return (
    <Dialog open={open} onClose={onClose} dismissLabel="Close" title={title} size="lg">
      {!created && (
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
          <Button onClick={() => void create()} loading={creating} loadingText="Creating DIP...">
            Create DIP
          </Button>
        </div>
      )}
      {created && !sent && (
        <div className="ui-stack">
          <Alert variant="success" title={`Quote Code: ${created.quoteCode}`}>
            Valid until {formatUkDate(created.expiresAt, 'long-time')}
          </Alert>
          <div className="ui-row">
            <Button variant="secondary" onClick={() => void copyLink()}>
              {copied ? 'Link Copied' : 'Copy Link'}
            </Button>
            <Button
              variant="secondary"
              loading={pdfState === 'working'}
              loadingText="Preparing PDF…"
              onClick={() => void download()}
            >
              Download PDF
            </Button>
          </div>
          <p role="status" className={pdfState === 'working' ? 'ui-muted' : 'ui-visually-hidden'}>
            {pdfState === 'working'
              ? 'Preparing your PDF. The first download of a DIP can take a few seconds.'
              : ''}
          </p>
          {pdfState === 'failed' && (
            <p className="sr-pdf-failed">
              The PDF isn&apos;t ready yet or could not be downloaded.{' '}
              <Button size="sm" variant="link" onClick={() => void download()}>
                Try again
              </Button>
            </p>
          )}
          <h3 className="sr-section-title">Share with estate agents</h3>
          <RecipientEmailsField value={emails} onChange={setEmails} error={emailError} />
          <TextAreaField
            label="Message (optional)"
            id="get-dip-message"
            rows={3}
            maxLength={2000}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
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
            disabled={emails.trim() === ''}
            loading={sending}
            loadingText="Sending..."
          >
            Share DIP
          </Button>
        </div>
      )}
      {sent && created && (
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
