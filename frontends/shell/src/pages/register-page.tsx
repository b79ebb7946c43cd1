import { zodResolver } from '@hookform/resolvers/zod';
import { STORAGE_KEYS, registerFormSchema } from '@lsp/contracts';
import type { RegisterBody, RegisterForm } from '@lsp/contracts';
import { Alert, MailIcon, buttonClass, useSession, useToast } from '@lsp/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  AuthAlerts,
  AuthSwitchLink,
  CreateAccountButton,
  EmailField,
  FullNameField,
  NewPasswordFields,
  useAuthFailure,
} from './auth-form';
import { AuthPage } from './auth-page';
import { pendingSearchRunId, readPendingResults } from '../auth/pending-results';

export function RegisterPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { toast } = useToast();
  const { refresh } = useSession();
  const failure = useAuthFailure('Registration Failed');
  const [checkEmailFor, setCheckEmailFor] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });

  const refDealId = params.get('ref_deal_id') || undefined;
  const sharedDipId = params.get('sharedDipId');
  const next = params.get('next');
  // Someone arriving through a shared DIP must verify their email before they can open it.
  const sharedContext = Boolean(sharedDipId) || Boolean(next?.includes('/shared/'));
  const loginParams = new URLSearchParams();
  if (next) loginParams.set('next', next);
  if (sharedDipId) loginParams.set('sharedDipId', sharedDipId);
  // Signing in after a sign-up from a shared deal lands on that deal (login redirect order, 6).
  if (refDealId && !next && !sharedDipId) loginParams.set('token', refDealId);
  const loginHref = `/login${loginParams.size ? `?${loginParams}` : ''}`;

  const onSubmit = async ({ name, email, password }: RegisterForm) => {
    const body: RegisterBody = {
      name,
      email,
      password,
      refDealId,
      fromSharedLink: sharedContext || Boolean(refDealId),
      // The search this browser holds for verification: the server saves its run to the new account.
      searchRunId: pendingSearchRunId(readPendingResults()),
    };
    if (refDealId) {
      try {
        // The deal this sign-up comes from, for the verification page in this browser.
        localStorage.setItem(STORAGE_KEYS.signupReferralToken, refDealId);
      } catch {
        // Storage refused: the server remembers the deal with the account as well.
      }
    }
    const answer = await failure.call('register', { body });
    if (!answer) return;
    if (!answer.ok) {
      failure.fail(
        answer.data?.error ?? 'Registration failed',
        answer.data?.error ?? 'Please try again later.',
      );
      return;
    }
    if (sharedContext || answer.data.requiresVerification || !answer.data.user.verified) {
      setCheckEmailFor(email);
      toast({
        title: 'Account created',
        description: answer.data.message || 'Check your email to verify your address.',
        variant: 'success',
      });
      return;
    }
    toast({
      title: 'Account created',
      description: answer.data.message || `Welcome, ${name}!`,
      variant: 'success',
    });
    await refresh();
    navigate(refDealId ? `/shared-deal/${encodeURIComponent(refDealId)}` : '/dashboard', { replace: true });
  };

  if (checkEmailFor) {
    return (
      <AuthPage title="Check your email">
        <div className="shell-center">
          <span className="shell-status-icon shell-status-icon--success">
            <MailIcon width={28} height={28} />
          </span>
          <p>
            We sent a verification link to <strong>{checkEmailFor}</strong>. Open it to verify your address,
            then sign in
            {sharedContext || refDealId ? ' to see what was shared with you' : ''}.
          </p>
          <Link to={loginHref} className={buttonClass('primary', 'lg', true)}>
            Go to sign in
          </Link>
          <p className="ui-muted" style={{ marginTop: 'var(--space-4)' }}>
            No email?{' '}
            <Link to={`/verify-email?email=${encodeURIComponent(checkEmailFor)}`}>Send it again</Link>
          </p>
        </div>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title="Create your account"
      subtitle="Save your searches, request Decisions in Principle and share deals."
    >
      <AuthAlerts failure={failure}>
        {(sharedContext || refDealId) && (
          <Alert
            variant="info"
            title={
              refDealId
                ? 'A loan deal has been shared with you'
                : 'A Decision in Principle has been shared with you'
            }
          >
            Create your account with the email address it was sent to.
          </Alert>
        )}
      </AuthAlerts>
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <FullNameField error={errors.name?.message} {...register('name')} />
        <EmailField error={errors.email?.message} {...register('email')} />
        <NewPasswordFields
          password={{ ...register('password'), error: errors.password?.message }}
          confirm={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
        />
        <CreateAccountButton loading={isSubmitting} />
      </form>
      <AuthSwitchLink prompt="Already have an account?" to={loginHref}>
        Sign in
      </AuthSwitchLink>
    </AuthPage>
  );
}
