import { zodResolver } from '@hookform/resolvers/zod';
import { IDENTITY_MESSAGES, STORAGE_KEYS, resendVerificationBodySchema } from '@lsp/contracts';
import type { ResendVerificationBody } from '@lsp/contracts';
import {
  AlertIcon,
  Button,
  CheckIcon,
  PageLoading,
  TextField,
  callApi,
  endJourney,
  buttonClass,
  notifySessionChanged,
  resendVerificationEmail,
  useToast,
} from '@lsp/ui';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { readPendingResults } from '../auth/pending-results';
import { AuthPage } from './auth-page';

type VerifyState =
  | { status: 'verifying' }
  | { status: 'verified'; name?: string; refDealId?: string }
  | { status: 'already-verified'; message: string; refDealId?: string }
  | { status: 'failed'; error: string; canResend: boolean };

const ALREADY_VERIFIED = 'This email address has already been verified. Please sign in.';

const DEFAULT_FAILURE = 'The verification link is invalid or has expired.';

/** The shared deal a sign-up in this browser came from (signupReferralToken), if any. */
function storedReferralToken(): string | undefined {
  try {
    return localStorage.getItem(STORAGE_KEYS.signupReferralToken) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sign-in after verifying: a sign-up from a shared deal goes on to that deal (login redirect order, 5);
 * results held back before verification open on the home page. The home page is passed as `redirect`,
 * not `next`: the sign-in page reads `next` as a page someone was sent to and says 'Shared Deal Access
 * Required', which would be untrue here.
 */
function loginHrefAfterVerifying(refDealId: string | undefined): string {
  if (refDealId) return `/login?token=${encodeURIComponent(refDealId)}`;
  if (readPendingResults()) return `/login?redirect=${encodeURIComponent('/?verified=true')}`;
  return '/login';
}

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<VerifyState>(() =>
    token ? { status: 'verifying' } : { status: 'failed', error: IDENTITY_MESSAGES.noToken, canResend: true },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    callApi('verifyEmail', { query: { token } }).then(
      (answer) => {
        if (!current) return;
        if (answer.ok) {
          setState({
            status: 'verified',
            name: answer.data.user.name,
            refDealId: answer.data.refDealId ?? storedReferralToken(),
          });
          // The visitor's way in ends here: what they do next has request ids of its own.
          endJourney();
          notifySessionChanged();
        } else {
          const data = answer.data;
          // A link opened a second time: the address is verified, so the way on is to sign in.
          if (data && 'alreadyVerified' in data && data.alreadyVerified === true) {
            setState({
              status: 'already-verified',
              message: data.error ?? ALREADY_VERIFIED,
              refDealId: storedReferralToken(),
            });
            return;
          }
          const error = data?.error ?? DEFAULT_FAILURE;
          setState({
            status: 'failed',
            error,
            canResend: (data && 'canResend' in data && data.canResend === true) || /expired/i.test(error),
          });
        }
      },
      (err) => {
        console.error('Email verification failed', err);
        if (current)
          setState({
            status: 'failed',
            error: 'Verification failed. Please try again or contact support.',
            canResend: true,
          });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (state.status === 'verifying') return <PageLoading label="Verifying your email..." />;

  if (state.status === 'already-verified') {
    return (
      <AuthPage title="Email Already Verified">
        <div className="shell-center">
          <span className="shell-status-icon shell-status-icon--success">
            <CheckIcon width={28} height={28} />
          </span>
          <p role="status">{state.message}</p>
          <Link to={loginHrefAfterVerifying(state.refDealId)} className={buttonClass('primary', 'lg', true)}>
            Sign In
          </Link>
        </div>
      </AuthPage>
    );
  }

  if (state.status === 'verified') {
    const loginHref = loginHrefAfterVerifying(state.refDealId);
    return (
      <AuthPage title="Email Verified!">
        <div className="shell-center">
          <span className="shell-status-icon shell-status-icon--success">
            <CheckIcon width={28} height={28} />
          </span>
          <p>
            {state.name ? `Thank you, ${state.name}. ` : ''}Your email address is verified.{' '}
            {state.refDealId
              ? 'Sign in to see the loan deal shared with you.'
              : 'Sign in to see your loan results and saved searches.'}
          </p>
          <Link to={loginHref} className={buttonClass('primary', 'lg', true)}>
            Continue to Login
          </Link>
        </div>
      </AuthPage>
    );
  }

  return (
    <AuthPage title="Verification Failed">
      <div className="shell-center">
        <span className="shell-status-icon shell-status-icon--danger">
          <AlertIcon width={28} height={28} />
        </span>
        <p role="alert">{state.error}</p>
      </div>
      {state.canResend && <ResendForm defaultEmail={params.get('email') ?? ''} />}
      <Link to="/" className={buttonClass('secondary', 'md', true)} style={{ marginTop: 'var(--space-4)' }}>
        Back to Home
      </Link>
    </AuthPage>
  );
}

function ResendForm({ defaultEmail }: { defaultEmail: string }) {
  const { toast } = useToast();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResendVerificationBody>({
    resolver: zodResolver(resendVerificationBodySchema),
    defaultValues: { email: defaultEmail },
  });

  const onInvalid = () => {
    if (errors.email?.message === IDENTITY_MESSAGES.resendEmailRequired || !errors.email) {
      toast({
        title: IDENTITY_MESSAGES.resendEmailRequiredTitle,
        description: IDENTITY_MESSAGES.resendEmailRequired,
        variant: 'error',
      });
    }
  };

  const onSubmit = async (values: ResendVerificationBody) => {
    toast(await resendVerificationEmail(values));
  };

  return (
    <form
      className="shell-form"
      onSubmit={handleSubmit(onSubmit, onInvalid)}
      noValidate
      aria-labelledby="resend-title"
      style={{ marginTop: 'var(--space-4)' }}
    >
      <h2 id="resend-title" style={{ fontSize: 'var(--text-lg)', margin: 0 }}>
        Send a new verification link
      </h2>
      <TextField
        label="Email address"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" block loading={isSubmitting} loadingText="Sending...">
        Resend verification email
      </Button>
    </form>
  );
}
