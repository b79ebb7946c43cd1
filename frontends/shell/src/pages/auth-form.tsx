// The pieces the sign-in, register and create-account forms share: the same fields with the same
// labels and autocomplete hints, and one way of showing a failed request (alert plus toast).
import { PASSWORD_MIN_LENGTH } from '@lsp/contracts';
import { Alert, Button, PasswordField, TextField, callApi, useToast } from '@lsp/ui';
import type { ApiAnswer, ApiInput, OperationId, TextFieldProps } from '@lsp/ui';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A react-hook-form registration plus the field's error; the label and input kind are fixed here. */
export type AuthFieldProps = Omit<TextFieldProps, 'label' | 'type' | 'autoComplete' | 'required' | 'prefix'>;

export function FullNameField(props: AuthFieldProps) {
  return <TextField label="Full name" autoComplete="name" required {...props} />;
}

export function EmailField(props: AuthFieldProps) {
  return <TextField label="Email address" type="email" autoComplete="email" required {...props} />;
}

/** A new account's password and its confirmation; the rules themselves live in the form schema. */
export function NewPasswordFields({
  password,
  confirm,
  label = 'Password',
}: {
  password: AuthFieldProps;
  confirm: AuthFieldProps;
  /** 'New password' where a password is replaced (reset, change). */
  label?: string;
}) {
  return (
    <>
      <PasswordField
        label={label}
        autoComplete="new-password"
        required
        hint={`At least ${PASSWORD_MIN_LENGTH} characters`}
        {...password}
      />
      <PasswordField
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        required
        {...confirm}
      />
    </>
  );
}

/** The submit button of both account-creation forms (register, and create-account after a search). */
export function CreateAccountButton({ loading }: { loading: boolean }) {
  return (
    <Button type="submit" size="lg" block loading={loading} loadingText="Creating your account...">
      Create Account
    </Button>
  );
}

export interface AuthFailure {
  /** The title of both the danger alert and the error toast, e.g. 'Login failed'. */
  title: string;
  serverError: string | null;
  /** Shows the message in the page's alert and the description in a toast. */
  fail: (message: string, toastDescription?: string) => void;
  /**
   * Calls the operation after clearing the last failure. A network failure is reported as
   * 'Network error' (toasted with networkDescription) and answered with null.
   */
  call: <Id extends OperationId>(
    id: Id,
    input: ApiInput<Id>,
    networkDescription?: string,
  ) => Promise<ApiAnswer<Id> | null>;
}

export function useAuthFailure(title: string): AuthFailure {
  const { toast } = useToast();
  const [serverError, setServerError] = useState<string | null>(null);
  const fail = (message: string, toastDescription = message) => {
    setServerError(message);
    toast({ title, description: toastDescription, variant: 'error' });
  };
  const call = async <Id extends OperationId>(
    id: Id,
    input: ApiInput<Id>,
    networkDescription = 'Network error',
  ): Promise<ApiAnswer<Id> | null> => {
    setServerError(null);
    try {
      return await (callApi as (id: Id, input: ApiInput<Id>) => Promise<ApiAnswer<Id>>)(id, input);
    } catch {
      fail('Network error', networkDescription);
      return null;
    }
  };
  return { title, serverError, fail, call };
}

/** The notices above an auth form, then the danger alert of the last failure. */
export function AuthAlerts({ failure, children }: { failure: AuthFailure; children?: ReactNode }) {
  return (
    <div className="ui-stack" style={{ marginBottom: 'var(--space-4)' }}>
      {children}
      {failure.serverError && (
        <Alert variant="danger" title={failure.title} live>
          {failure.serverError}
        </Alert>
      )}
    </div>
  );
}

/** The line under an auth form that leads to the other one (sign in / create an account). */
export function AuthSwitchLink({
  prompt,
  to,
  children,
}: {
  prompt: string;
  to: string;
  children: ReactNode;
}) {
  return (
    <p style={{ marginTop: 'var(--space-4)' }}>
      {prompt} <Link to={to}>{children}</Link>
    </p>
  );
}
