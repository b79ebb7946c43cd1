// Send Deal: comma-separated emails, an optional note; one deal-share per
// recipient; 'Deal Sent Successfully!' with the counts, or 'Failed to Send Deal' when all fail; the
// result per recipient is listed and the dialog closes 3 seconds after at least one success.
import {
  Button,
  Dialog,
  EMAIL_NOT_VERIFIED,
  isVerificationRequired,
  useSession,
  useToast,
  TextAreaField,
} from '@lsp/ui';
import { useEffect, useRef, useState } from 'react';
import { createDealShare, type DealShareDialogProps } from './deal-share';
import { invalidEmails, splitEmails } from '../shared/recipient-addresses';
import { RecipientEmailsField } from '../shared/recipient-emails';

export const SEND_DEAL_CLOSE_MS = 3000;

export function SendDealDialog({
  open,
  onClose,
  offer,
  lender,
  loanType,
  searchRunId,
}: DealShareDialogProps) {
  const { user } = useSession();
  const { toast } = useToast();
  const [emails, setEmails] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<Array<{ email: string; ok: boolean }> | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const send = async () => {
    const list = splitEmails(emails);
    if (list.length === 0)
      return setError('Email Required - Please enter at least one recipient email address');
    const invalid = invalidEmails(list);
    if (invalid.length) return setError(`Invalid Email Addresses - Please check: ${invalid.join(', ')}`);
    setError(null);
    setSending(true);
    const outcome: Array<{ email: string; ok: boolean }> = [];
    let unverified = false;
    for (const email of list) {
      const answer = await createDealShare(
        { referralEmail: email },
        { referrerId: user?.id ?? '', offer, loanType, searchRunId, note },
      ).catch(() => ({ ok: false, data: null }));
      // Not verified yet: no recipient will succeed, and the toast should say why.
      if (!answer.ok && isVerificationRequired(answer.data)) {
        unverified = true;
        outcome.push(...list.slice(outcome.length).map((rest) => ({ email: rest, ok: false })));
        break;
      }
      outcome.push({ email, ok: answer.ok });
    }
    setSending(false);
    setResults(outcome);
    const sent = outcome.filter((r) => r.ok).length;
    const failed = outcome.length - sent;
    if (sent === 0) {
      toast({
        title: 'Failed to Send Deal',
        description: unverified ? EMAIL_NOT_VERIFIED : 'All emails failed to send',
        variant: 'error',
      });
      return;
    }
    toast({
      title: 'Deal Sent Successfully!',
      description: `Loan details shared with ${sent} recipient(s)${failed ? `, ${failed} failed` : ''}`,
      variant: 'success',
    });
    closeTimer.current = setTimeout(onClose, SEND_DEAL_CLOSE_MS);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      dismissLabel="Cancel"
      title="Send Deal"
      description={`Email the ${lender} offer to someone.`}
      footer={
        <Button onClick={() => void send()} loading={sending} loadingText="Sending...">
          Send Deal
        </Button>
      }
    >
      <div className="ui-stack">
        <RecipientEmailsField value={emails} onChange={setEmails} error={error} />
        <TextAreaField
          label="Note (optional)"
          id="send-deal-note"
          rows={3}
          maxLength={1000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        {results && (
          <ul aria-label="Results per recipient" className="sr-send-results">
            {results.map((r) => (
              <li key={r.email}>
                {r.email}: {r.ok ? 'Sent' : 'Failed'}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
