import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MESSAGES, changePasswordBodySchema } from '@lsp/contracts';
import type { ChangePasswordBody } from '@lsp/contracts';
import {
  Alert,
  Button,
  Card,
  PasswordField,
  RequireSession,
  notifySessionChanged,
  useSession,
  useToast,
} from '@lsp/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ApiKeysSection } from '../account/api-keys-section';
import { WebhooksSection } from '../account/webhooks-section';
import { AuthAlerts, NewPasswordFields, useAuthFailure } from './auth-form';

/**
 * The signed-in user's account: change the password, sign out on every device, and what a broker's
 * own systems use: the API keys they call the API with and the webhooks they are told events by.
 */
export function AccountPage() {
  return (
    <RequireSession>
      <AccountSettings />
    </RequireSession>
  );
}

function AccountSettings() {
  const { user } = useSession();
  return (
    <div className="ui-container shell-page">
      <Card as="div" raised className="shell-auth-card">
        <h1 style={{ fontSize: 'var(--text-2xl)' }}>Your account</h1>
        {user && (
          <p className="ui-muted shell-account__who">
            Signed in as <strong>{user.name || user.email}</strong>
            {user.name ? ` (${user.email})` : ''}
          </p>
        )}
        <ChangePasswordSection />
        <SignOutEverywhereSection />
      </Card>
      <Card as="div" raised className="shell-auth-card shell-account__card">
        <ApiKeysSection />
      </Card>
      <Card as="div" raised className="shell-auth-card shell-account__card">
        <WebhooksSection />
      </Card>
    </div>
  );
}

function ChangePasswordSection() {
  const { toast } = useToast();
  const failure = useAuthFailure('Password not changed');
  const [done, setDone] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });

  const onSubmit = async (values: ChangePasswordBody) => {
    setDone(null);
    const answer = await failure.call('changePassword', { body: values });
    if (!answer) return;
    if (!answer.ok) {
      const error = answer.data?.error;
      if (error === PASSWORD_MESSAGES.currentPasswordWrong) {
        setError('currentPassword', { message: error }, { shouldFocus: true });
      } else {
        failure.fail(error ?? 'Something went wrong. Please try again.');
      }
      return;
    }
    const message = answer.data.message || PASSWORD_MESSAGES.changed;
    reset();
    setDone(message);
    toast({ title: 'Password changed', description: message, variant: 'success' });
  };

  return (
    <section aria-labelledby="change-password-heading" style={{ marginTop: 'var(--space-6)' }}>
      <h2 id="change-password-heading" style={{ fontSize: 'var(--text-xl)' }}>
        Change your password
      </h2>
      <p className="ui-muted">You stay signed in here; every other device is signed out.</p>
      <AuthAlerts failure={failure}>
        {done && (
          <Alert variant="success" title="Password changed" live>
            {done}
          </Alert>
        )}
      </AuthAlerts>
      <form className="shell-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          required
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <NewPasswordFields
          label="New password"
          password={{ ...register('password'), error: errors.password?.message }}
          confirm={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
        />
        <Button type="submit" size="lg" block loading={isSubmitting} loadingText="Saving...">
          Change password
        </Button>
      </form>
    </section>
  );
}

function SignOutEverywhereSection() {
  const navigate = useNavigate();
  const { toast } = useToast();
  const failure = useAuthFailure('Could not sign out');
  const [busy, setBusy] = useState(false);

  const signOutEverywhere = async () => {
    setBusy(true);
    const answer = await failure.call('logoutEverywhere', {});
    setBusy(false);
    if (!answer) return;
    if (!answer.ok && answer.status !== 401) {
      failure.fail(answer.data?.error ?? 'Something went wrong. Please try again.');
      return;
    }
    notifySessionChanged();
    toast({
      title: 'Signed out everywhere',
      description: (answer.ok && answer.data.message) || PASSWORD_MESSAGES.signedOutEverywhere,
      variant: 'success',
    });
    navigate('/login?signedOut=everywhere', { replace: true });
  };

  return (
    <section aria-labelledby="sign-out-everywhere-heading" style={{ marginTop: 'var(--space-6)' }}>
      <h2 id="sign-out-everywhere-heading" style={{ fontSize: 'var(--text-xl)' }}>
        Sign out everywhere
      </h2>
      <p className="ui-muted">
        Ends every session of your account on every device and browser, this one included. Use it if you
        signed in on a device you no longer have or do not trust.
      </p>
      <AuthAlerts failure={failure} />
      <Button variant="danger" block loading={busy} loadingText="Signing out..." onClick={signOutEverywhere}>
        Sign out everywhere
      </Button>
    </section>
  );
}
