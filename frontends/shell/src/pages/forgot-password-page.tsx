import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MESSAGES, forgotPasswordBodySchema } from '@lsp/contracts';
import type { ForgotPasswordBody } from '@lsp/contracts';
import { Button, MailIcon, buttonClass } from '@lsp/ui';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthAlerts, AuthSwitchLink, EmailField, useAuthFailure } from './auth-form';
import { AuthPage } from './auth-page';

/**
 * Asks for a password-reset link. Whether or not the address has an account, the answer and this
 * page's confirmation are the same; only a refusal the server gives everyone (too many requests, a
 * malformed address) is shown as an error.
 */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const failure = useAuthFailure('Could not send the link');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordBodySchema),
    defaultValues: { email: params.get('email') ?? '' },
  });

  // The confirmation replaces the form: focus moves to its heading so a screen reader reads it.
  useEffect(() => {
    if (sentTo) heading.current?.focus();
  }, [sentTo]);

  const onSubmit = async ({ email }: ForgotPasswordBody) => {
    const answer = await failure.call('forgotPassword', { body: { email } });
    if (!answer) return;
    if (!answer.ok) {
      failure.fail(answer.data?.error ?? 'Something went wrong. Please try again.');
      return;
    }
    setSentTo(email.trim());
  };

  if (sentTo) {
    return (
      <AuthPage title="Check your email" headingRef={heading}>
        <div className="shell-center">
          <span className="shell-status-icon shell-status-icon--success">
            <MailIcon width={28} height={28} />
          </span>
          <p role="status">{PASSWORD_MESSAGES.resetRequested}</p>
          <p className="ui-muted">
            You asked for <strong>{sentTo}</strong>. The link works once and only for a short time. No email
            after a few minutes? Check your spam folder, or ask again.
          </p>
          <Link to="/login" className={buttonClass('primary', 'lg', true)}>
            Back to sign in
          </Link>
          <p style={{ marginTop: 'var(--space-4)' }}>
            <Button variant="link" onClick={() => setSentTo(null)}>
              Ask for another link
            </Button>
          </p>
        </div>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title="Forgot your password?"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <AuthAlerts failure={failure} />
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <EmailField error={errors.email?.message} {...register('email')} />
        <Button type="submit" size="lg" block loading={isSubmitting} loadingText="Sending...">
          Send reset link
        </Button>
      </form>
      <AuthSwitchLink prompt="Remembered it?" to="/login">
        Sign in
      </AuthSwitchLink>
    </AuthPage>
  );
}
