import { zodResolver } from '@hookform/resolvers/zod';
import { createAccountFormSchema } from '@lsp/contracts';
import type { CreateAccountBody, CreateAccountForm } from '@lsp/contracts';
import { Alert, LendabilityScoreCard, Spinner, TextField, useToast } from '@lsp/ui';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import {
  pendingLendabilityScore,
  pendingResultCount,
  pendingSearchRunId,
  readPendingResults,
} from '../auth/pending-results';
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

/** After success the page waits this long, so the confirmation can be read, then goes to /login. */
export const CREATE_ACCOUNT_REDIRECT_DELAY_MS = 2000;

export function CreateAccountPage() {
  const navigate = useNavigate();
  const { toast } = useToast();
  const pending = useMemo(() => readPendingResults(), []);
  const count = pendingResultCount(pending);
  const score = pendingLendabilityScore(pending);
  const failure = useAuthFailure('Account creation failed');
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
    const body: CreateAccountBody = {
      ...values,
      searchData: pending ? { loanType: pending.loanType, ...pending.formData } : undefined,
      searchRunId: pendingSearchRunId(pending),
    };
    const answer = await failure.call(
      'createAccount',
      { body },
      'An error occurred while creating your account.',
    );
    if (!answer) return;
    if (!answer.ok) {
      failure.fail(answer.data?.error ?? 'An error occurred while creating your account.');
      return;
    }
    toast({
      title: 'Account created',
      description: answer.data.message || 'Check your email to verify your address, then sign in.',
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
      <AuthAlerts failure={failure}>
        {count > 0 && (
          <Alert variant="success" title={`We found ${count} loan option${count === 1 ? '' : 's'} for you`}>
            They will be waiting for you as soon as your email address is verified.
          </Alert>
        )}
      </AuthAlerts>
      {score && <LendabilityScoreCard score={score.score} tips={score.tips} className="shell-lendability" />}
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <FullNameField error={errors.name?.message} {...register('name')} />
        <EmailField error={errors.email?.message} {...register('email')} />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          placeholder="07700 900123"
          required
          error={errors.phone?.message}
          {...register('phone')}
        />
        <NewPasswordFields
          password={{ ...register('password'), error: errors.password?.message }}
          confirm={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
        />
        <CreateAccountButton loading={isSubmitting} />
      </form>
      <AuthSwitchLink prompt="Already have an account?" to="/login">
        Sign in
      </AuthSwitchLink>
    </AuthPage>
  );
}
