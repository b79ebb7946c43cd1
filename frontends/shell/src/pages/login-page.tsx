import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MESSAGES, STORAGE_KEYS, loginBodySchema } from '@lsp/contracts';
import type { LoginBody } from '@lsp/contracts';
import {
  Alert,
  Button,
  PasswordField,
  endJourney,
  notifySessionChanged,
  useSession,
  useToast,
} from '@lsp/ui';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { loginRedirectTarget } from '../auth/login-redirect';
import { announcePendingResultsSoon, holdsFreshPendingResults } from '../auth/pending-results';
import { AuthAlerts, AuthSwitchLink, EmailField, useAuthFailure } from './auth-form';
import { AuthPage } from './auth-page';

function takePostAuthRedirect(): string | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.postAuthRedirect);
    window.localStorage.removeItem(STORAGE_KEYS.postAuthRedirect);
    return stored;
  } catch {
    return null;
  }
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { toast } = useToast();
  const { refresh } = useSession();
  const failure = useAuthFailure('Login failed');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginBody>({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { email: params.get('email') ?? '', password: '' },
  });

  const next = params.get('next');
  const sharedDip = Boolean(params.get('sharedDipId')) || params.get('shared') === '1';
  const sharedDeal = Boolean(params.get('token'));
  const registerParams = new URLSearchParams();
  for (const key of ['next', 'sharedDipId'] as const) {
    const value = params.get(key);
    if (value) registerParams.set(key, value);
  }
  if (params.get('token')) registerParams.set('ref_deal_id', params.get('token') ?? '');
  const registerHref = `/register${registerParams.size ? `?${registerParams}` : ''}`;

  const onSubmit = async (values: LoginBody) => {
    const answer = await failure.call('login', { body: values });
    if (!answer) return;
    try {
      if (!answer.ok) {
        failure.fail(
          answer.data?.error ?? 'Login failed',
          answer.data?.error ?? 'Invalid credentials. Please check your email and password.',
        );
        return;
      }
      const name = answer.data.user.name;
      toast({
        title: 'Login successful',
        description: name ? `Welcome back, ${name}!` : 'Welcome back!',
        variant: 'success',
      });
      await refresh();
      endJourney();
      notifySessionChanged();
      announcePendingResultsSoon();
      const target = loginRedirectTarget(params, takePostAuthRedirect(), holdsFreshPendingResults());
      if (target.hard) window.location.assign(target.to);
      else navigate(target.to, { replace: true });
    } catch (err) {
      console.error('Login failed', err);
      failure.fail('An error occurred during login. Please try again.');
    }
  };

  return (
    <AuthPage
      title="Sign in to your account"
      subtitle="See your saved searches, Decisions in Principle and shared deals."
    >
      <AuthAlerts failure={failure}>
        {params.get('reset') === '1' && (
          <Alert variant="success" title="Password reset" live>
            {PASSWORD_MESSAGES.resetDone}
          </Alert>
        )}
        {params.get('signedOut') === 'everywhere' && (
          <Alert variant="success" title="Signed out everywhere" live>
            {PASSWORD_MESSAGES.signedOutEverywhere}
          </Alert>
        )}
        {next && (
          <Alert variant="info" title="Shared Deal Access Required">
            Please sign in to continue to the page you were sent to. New here? Create a free account first.
          </Alert>
        )}
        {sharedDip && (
          <Alert variant="info" title="A Decision in Principle has been shared with you">
            Sign in with the email address it was sent to and it will open for you.
          </Alert>
        )}
        {sharedDeal && (
          <Alert variant="info" title="A loan deal has been shared with you">
            Sign in, or create an account, to see the deal and the note that came with it.
          </Alert>
        )}
      </AuthAlerts>
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <EmailField error={errors.email?.message} {...register('email')} />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <p style={{ margin: 0 }}>
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <Button type="submit" size="lg" block loading={isSubmitting} loadingText="Signing in...">
          Sign In
        </Button>
      </form>
      <AuthSwitchLink prompt="Don't have an account?" to={registerHref}>
        Create an account
      </AuthSwitchLink>
    </AuthPage>
  );
}
