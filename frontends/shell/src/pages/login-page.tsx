import { zodResolver } from '@hookform/resolvers/zod';
import { loginBodySchema } from '@lsp/contracts';
import type { LoginBody } from '@lsp/contracts';
import {
  Alert,
  Button,
  PasswordField,
  STORAGE_KEYS,
  TextField,
  apiSend,
  notifySessionChanged,
  useSession,
  useToast,
} from '@lsp/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { loginRedirectTarget } from '../auth/login-redirect';
import { announcePendingResultsSoon } from '../auth/pending-results';
import { AuthPage } from './auth-page';

interface LoginAnswer {
  user?: { name?: string; email?: string };
  error?: string;
}

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
  const [serverError, setServerError] = useState<string | null>(null);
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
    setServerError(null);
    let answer;
    try {
      answer = await apiSend<LoginAnswer>('POST', '/api/login', values);
    } catch {
      setServerError('Network error');
      toast({ title: 'Login failed', description: 'Network error', variant: 'error' });
      return;
    }
    try {
      if (!answer.ok || !answer.data?.user) {
        setServerError(answer.data?.error ?? 'Login failed');
        toast({
          title: 'Login failed',
          description: answer.data?.error ?? 'Invalid credentials. Please check your email and password.',
          variant: 'error',
        });
        return;
      }
      const name = answer.data.user.name ?? '';
      toast({
        title: 'Login successful',
        description: name ? `Welcome back, ${name}!` : 'Welcome back!',
        variant: 'success',
      });
      await refresh();
      notifySessionChanged();
      announcePendingResultsSoon();
      const target = loginRedirectTarget(params, takePostAuthRedirect());
      if (target.hard) window.location.assign(target.to);
      else navigate(target.to, { replace: true });
    } catch (err) {
      console.error('Login failed', err);
      setServerError('An error occurred during login. Please try again.');
      toast({
        title: 'Login failed',
        description: 'An error occurred during login. Please try again.',
        variant: 'error',
      });
    }
  };

  return (
    <AuthPage
      title="Sign in to your account"
      subtitle="See your saved searches, Decisions in Principle and shared deals."
    >
      <div className="ui-stack" style={{ marginBottom: 'var(--space-4)' }}>
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
        {serverError && (
          <Alert variant="danger" title="Login failed" live>
            {serverError}
          </Alert>
        )}
      </div>
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...register('email')}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <Button type="submit" size="lg" block loading={isSubmitting} loadingText="Signing in...">
          Sign In
        </Button>
      </form>
      <p style={{ marginTop: 'var(--space-4)' }}>
        Don&apos;t have an account? <Link to={registerHref}>Create an account</Link>
      </p>
    </AuthPage>
  );
}
