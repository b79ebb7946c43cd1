import { zodResolver } from '@hookform/resolvers/zod';
import { createAccountFormSchema } from '@lsp/contracts';
import type { CreateAccountBody, CreateAccountForm } from '@lsp/contracts';
import { Alert, Button, PasswordField, Spinner, TextField, apiSend, useToast } from '@lsp/ui';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { pendingResultCount, readPendingResults } from '../auth/pending-results';
import { AuthPage } from './auth-page';

/** After success the page waits this long, so the confirmation can be read, then goes to /login. */
export const CREATE_ACCOUNT_REDIRECT_DELAY_MS = 2000;

interface CreateAccountAnswer {
  success?: boolean;
  error?: string;
  message?: string;
}

export function CreateAccountPage() {
  const navigate = useNavigate();
  const { toast } = useToast();
  const pending = useMemo(() => readPendingResults(), []);
  const count = pendingResultCount(pending);
  const [serverError, setServerError] = useState<string | null>(null);
  const [created, setCreated] = useState(false);
  const lead = pending?.userData;
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CreateAccountForm>({
    resolver: zodResolver(createAccountFormSchema),
    defaultValues: {
      name: lead?.name ?? lead?.fullName ?? '',
      email: lead?.email ?? '',
      phone: lead?.phone ?? '',
      password: '',
      confirmPassword: '',
    },
  });

  useEffect(() => {
    if (!created) return;
    const timer = window.setTimeout(() => navigate('/login'), CREATE_ACCOUNT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [created, navigate]);

  const onSubmit = async (values: CreateAccountForm) => {
    setServerError(null);
    const body: CreateAccountBody = {
      ...values,
      searchData: pending ? { loanType: pending.loanType, ...pending.formData } : undefined,
    };
    let answer;
    try {
      answer = await apiSend<CreateAccountAnswer>('POST', '/api/create-account', body);
    } catch {
      setServerError('Network error');
      toast({
        title: 'Account creation failed',
        description: 'An error occurred while creating your account.',
        variant: 'error',
      });
      return;
    }
    if (!answer.ok || answer.data?.success === false) {
      const message = answer.data?.error ?? 'An error occurred while creating your account.';
      setServerError(message);
      toast({ title: 'Account creation failed', description: message, variant: 'error' });
      return;
    }
    toast({
      title: 'Account created',
      description: answer.data?.message ?? 'Check your email to verify your address, then sign in.',
      variant: 'success',
    });
    setCreated(true);
  };

  if (created) {
    return (
      <AuthPage title="Account created">
        <p>
          We sent a verification link to your email. Verify your address to unlock your loan results, then
          sign in.
        </p>
        <Spinner label="Taking you to sign in..." />
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title="Create your account to see your results"
      subtitle="Your search is saved. Create an account and verify your email to view the lender offers."
    >
      <div className="ui-stack" style={{ marginBottom: 'var(--space-4)' }}>
        {count > 0 && (
          <Alert variant="success" title={`We found ${count} loan option${count === 1 ? '' : 's'} for you`}>
            They will be waiting for you as soon as your email address is verified.
          </Alert>
        )}
        {serverError && (
          <Alert variant="danger" title="Account creation failed" live>
            {serverError}
          </Alert>
        )}
      </div>
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <TextField
          label="Full name"
          autoComplete="name"
          required
          error={errors.name?.message}
          {...register('name')}
        />
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          placeholder="07700 900123"
          required
          error={errors.phone?.message}
          {...register('phone')}
        />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          required
          hint="At least 8 characters"
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          required
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <Button type="submit" size="lg" block loading={isSubmitting} loadingText="Creating your account...">
          Create Account
        </Button>
      </form>
      <p style={{ marginTop: 'var(--space-4)' }}>
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </AuthPage>
  );
}
