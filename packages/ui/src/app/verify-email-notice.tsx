// What a signed-in person whose email address is not verified yet meets: the services
// refuse every owner- or recipient-scoped call with a 403 carrying `verificationRequired: true`, and
// the pages say so here, with a button that sends the verification email again.
import { EMAIL_NOT_VERIFIED } from '@lsp/contracts/src/api/messages';
import { useState } from 'react';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { cx } from '../components/class-names';
import { useToast } from '../components/toast';
import { ApiError } from './api';
import { resendVerificationEmail } from './resend-verification';
import { useSession } from './session';

export const VERIFY_EMAIL_TITLE = 'Please verify your email address';
/** What a page refused for this reason says under the title (the banner above holds the resend). */
export const VERIFY_EMAIL_FIRST =
  'This opens once your email address is verified. Follow the link in the verification email, or send a new one from the notice at the top of the page.';
export { EMAIL_NOT_VERIFIED };

/** Whether a failed call (an ApiError, or an answer's body) is the unverified-address 403. */
export function isVerificationRequired(failure: unknown): boolean {
  const body = failure instanceof ApiError ? failure.body : failure;
  return (
    body !== null &&
    typeof body === 'object' &&
    (body as { verificationRequired?: unknown }).verificationRequired === true
  );
}

export interface VerifyEmailNoticeProps {
  /** Where the email goes; the signed-in user's address by default. */
  email?: string;
  /**
   * Whether the notice carries its own resend button. Pages whose load was refused say so without
   * one: the shell's banner above every page of an unverified session already holds it.
   */
  resend?: boolean;
  className?: string;
}

/** The notice and its 'Resend verification email' button (toasts in the spec's words). */
export function VerifyEmailNotice({ email, resend: withResend = true, className }: VerifyEmailNoticeProps) {
  const { user } = useSession();
  const { toast } = useToast();
  const [sending, setSending] = useState(false);
  const address = email ?? user?.email ?? '';
  const resend = async () => {
    setSending(true);
    try {
      toast(await resendVerificationEmail({ email: address }));
    } finally {
      setSending(false);
    }
  };
  return (
    <Alert variant="warning" title={VERIFY_EMAIL_TITLE} className={cx('ui-verify-notice', className)}>
      <p>
        {withResend ? EMAIL_NOT_VERIFIED : VERIFY_EMAIL_FIRST}
        {withResend && address && (
          <>
            {' '}
            The link goes to <strong>{address}</strong>.
          </>
        )}
      </p>
      {withResend && (
        <Button
          variant="secondary"
          size="sm"
          onClick={resend}
          disabled={!address}
          loading={sending}
          loadingText="Sending..."
        >
          Resend verification email
        </Button>
      )}
    </Alert>
  );
}
