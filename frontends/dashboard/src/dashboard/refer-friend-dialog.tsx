// Refer a Friend: the user's name prefilled, the friend's email, a default message;
// POST /api/referrals; 'Invitation Sent!' then the dialog closes after 2 seconds.
import { SHARING_MESSAGES } from '@lsp/contracts/src/sharing/messages';
import {
  Button,
  Dialog,
  EMAIL_NOT_VERIFIED,
  TextField,
  callApi,
  isVerificationRequired,
  useToast,
  TextAreaField,
} from '@lsp/ui';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';

export const REFERRAL_CLOSE_MS = 2000;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const REFERRAL_MISSING = SHARING_MESSAGES.referralMissing;
const REFERRAL_INVALID_EMAIL = SHARING_MESSAGES.referralInvalidEmail;

interface ReferralForm {
  referrerName: string;
  referralEmail: string;
  message: string;
}

export function defaultReferralMessage(name: string): string {
  return `Hi, ${name || 'a friend'} thinks you'd find this useful: compare UK property finance from dozens of lenders in seconds and get a Decision in Principle online.`;
}

export function ReferFriendDialog({
  open,
  onClose,
  userName,
}: {
  open: boolean;
  onClose: () => void;
  userName: string;
}) {
  const { toast } = useToast();
  const [sent, setSent] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const blank = { referrerName: userName, referralEmail: '', message: defaultReferralMessage(userName) };
  const { register, handleSubmit, formState, reset } = useForm<ReferralForm>({ defaultValues: blank });
  const { errors, isSubmitting } = formState;

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const close = () => {
    clearTimeout(closeTimer.current);
    setSent(false);
    reset(blank);
    onClose();
  };

  const submit = handleSubmit(async (values) => {
    try {
      const { ok, data } = await callApi('refer', {
        body: {
          referrerName: values.referrerName.trim(),
          referralEmail: values.referralEmail.trim(),
          message: values.message.trim(),
        },
      });
      // Not verified yet: say why instead of 'please try again', which would fail the same way.
      if (!ok && isVerificationRequired(data)) {
        toast({ title: 'Error', description: EMAIL_NOT_VERIFIED, variant: 'error' });
        return;
      }
      if (!ok) throw new Error('referral refused');
      setSent(true);
      toast({
        title: 'Invitation Sent!',
        description: `We've emailed ${values.referralEmail.trim()}.`,
        variant: 'success',
      });
      closeTimer.current = setTimeout(close, REFERRAL_CLOSE_MS);
    } catch {
      toast({ title: 'Error', description: 'Failed to send referral. Please try again.', variant: 'error' });
    }
  });

  return (
    <Dialog
      open={open}
      onClose={close}
      dismissLabel="Cancel"
      title="Refer a Friend"
      description="Invite a friend to compare property finance."
      footer={
        <Button
          type="submit"
          form="refer-friend-form"
          loading={isSubmitting}
          loadingText="Sending..."
          disabled={sent}
        >
          Send Invitation
        </Button>
      }
    >
      <form id="refer-friend-form" noValidate onSubmit={submit} className="ui-stack">
        <TextField
          label="Your name"
          autoComplete="name"
          {...register('referrerName', { validate: (v) => v.trim().length > 0 || REFERRAL_MISSING })}
          error={errors.referrerName?.message}
        />
        <TextField
          label="Friend's email"
          type="email"
          required
          {...register('referralEmail', {
            validate: (v) =>
              !v.trim() ? REFERRAL_MISSING : EMAIL_PATTERN.test(v.trim()) || REFERRAL_INVALID_EMAIL,
          })}
          error={errors.referralEmail?.message}
        />
        <TextAreaField
          label="Message"
          id="refer-friend-message"
          rows={4}
          maxLength={1000}
          {...register('message')}
        />
        {sent && (
          <p role="status" className="ui-muted">
            Invitation Sent!
          </p>
        )}
      </form>
    </Dialog>
  );
}
