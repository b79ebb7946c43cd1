import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MESSAGES, resetPasswordFormSchema } from '@lsp/contracts';
import type { ResetPasswordForm } from '@lsp/contracts';
import { AlertIcon, Button, buttonClass, notifySessionChanged, useToast } from '@lsp/ui';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthAlerts, NewPasswordFields, useAuthFailure } from './auth-form';
import { AuthPage } from './auth-page';

/** The answers that mean the link itself is no good (unknown, used, expired or missing). */
const LINK_ERRORS = new Set<string>([PASSWORD_MESSAGES.resetInvalid, PASSWORD_MESSAGES.noResetToken]);

/**
 * The page the reset email links to (`/reset-password?token=…`): a new password twice, with the
 * registration rules. Success ends every session and goes to sign-in with a notice; a link that is
 * no good says so and offers a new one.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const { toast } = useToast();
  const failure = useAuthFailure('Password reset failed');
  const [linkError, setLinkError] = useState<string | null>(token ? null : PASSWORD_MESSAGES.noResetToken);
  const heading = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  useEffect(() => {
    if (linkError && token) heading.current?.focus();
  }, [linkError, token]);

  const onSubmit = async (values: ResetPasswordForm) => {
    const answer = await failure.call('resetPassword', { body: { token, ...values } });
    if (!answer) return;
    const error = answer.data?.error;
    if (!answer.ok) {
      if (answer.status === 400 && error && LINK_ERRORS.has(error)) setLinkError(error);
      else failure.fail(error ?? 'Something went wrong. Please try again.');
      return;
    }
    // Every session of the account has ended, this browser's included.
    notifySessionChanged();
    toast({
      title: 'Password reset',
      description: answer.data?.message ?? PASSWORD_MESSAGES.resetDone,
      variant: 'success',
    });
    navigate('/login?reset=1', { replace: true });
  };

  if (linkError) {
    return (
      <AuthPage title="This link cannot be used" headingRef={heading}>
        <div className="shell-center">
          <span className="shell-status-icon shell-status-icon--danger">
            <AlertIcon width={28} height={28} />
          </span>
          <p role="alert">
            {linkError === PASSWORD_MESSAGES.noResetToken
              ? 'This page needs the link from your password reset email. Please ask for a new one.'
              : linkError}
          </p>
          <p className="ui-muted">Reset links work once, and only for a short time.</p>
          <Link to="/forgot-password" className={buttonClass('primary', 'lg', true)}>
            Ask for a new link
          </Link>
          <p style={{ marginTop: 'var(--space-4)' }}>
            <Link to="/login">Back to sign in</Link>
          </p>
        </div>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title="Choose a new password"
      subtitle="When it is set you will be signed out everywhere and can sign in with the new password."
    >
      <AuthAlerts failure={failure} />
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <NewPasswordFields
          label="New password"
          password={{ ...register('password'), error: errors.password?.message }}
          confirm={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
        />
        <Button type="submit" size="lg" block loading={isSubmitting} loadingText="Saving...">
          Reset password
        </Button>
      </form>
    </AuthPage>
  );
}
