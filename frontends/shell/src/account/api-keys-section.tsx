// The account page's API keys: make one (a name and its scopes) and see it this once with Copy, list
// them (name, prefix, scopes, created, last used, expiry), and revoke one after a confirmation. The
// services refuse an unverified address (and a call made with a key); the page shows their words.
import { zodResolver } from '@hookform/resolvers/zod';
import type { ApiKeySummary } from '@lsp/contracts';
import {
  Button,
  Checkbox,
  FieldError,
  Spinner,
  TextField,
  callApi,
  refusalToast,
  requestApi,
  useToast,
} from '@lsp/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useReducer } from 'react';
import { useForm } from 'react-hook-form';
import { AuthAlerts, useAuthFailure } from '../pages/auth-form';
import { ConfirmRemoval } from './confirm-removal';
import {
  type ApiKeyForm,
  SCOPE_OPTIONS,
  accessReducer,
  apiKeyBody,
  apiKeyFormDefaults,
  apiKeyFormSchema,
  initialAccessState,
  scopesText,
  whenText,
} from './developer-access-model';
import { LoadFailure } from './load-failure';
import { RevealedSecretPanel } from './revealed-secret';

export const API_KEYS_QUERY_KEY = ['api-keys'] as const;

export function ApiKeysSection() {
  const [state, dispatch] = useReducer(accessReducer, initialAccessState);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: API_KEYS_QUERY_KEY,
    queryFn: ({ signal }) => requestApi('listApiKeys', undefined, { signal }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY });

  const revoke = async () => {
    const target = state.confirming;
    if (!target) return;
    dispatch({ kind: 'removeStarted' });
    try {
      const answer = await callApi('revokeApiKey', { params: { keyId: target.id } });
      if (!answer.ok) {
        dispatch({ kind: 'removeFailed' });
        toast(refusalToast('Revoke failed', answer.data, 'Something went wrong. Please try again.'));
        return;
      }
      dispatch({ kind: 'removed', id: target.id });
      toast({
        title: 'API key revoked',
        description: `${target.label} no longer opens your account`,
        variant: 'success',
      });
    } catch {
      dispatch({ kind: 'removeFailed' });
      toast({ title: 'Revoke failed', description: 'Network error', variant: 'error' });
    }
    await refresh();
  };

  return (
    <section aria-labelledby="api-keys-heading" className="shell-account__section">
      <h2 id="api-keys-heading" style={{ fontSize: 'var(--text-xl)' }}>
        API keys
      </h2>
      <p className="ui-muted">
        Your own systems (a CRM, a case manager) call the API as you with{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>, within the scopes you give the key. Revoke a key and
        the next call made with it is refused.
      </p>
      {state.revealed && (
        <RevealedSecretPanel
          revealed={state.revealed}
          what="API key"
          copied={state.copied}
          onCopied={() => dispatch({ kind: 'copied' })}
          onDone={() => dispatch({ kind: 'dismissSecret' })}
        >
          Keep it where your system keeps secrets.
        </RevealedSecretPanel>
      )}
      <CreateApiKeyForm
        onCreated={async (made) => {
          dispatch({ kind: 'created', revealed: { id: made.id, label: made.name, secret: made.key } });
          toast({
            title: 'API key created',
            description: `${made.name} is ready to use`,
            variant: 'success',
          });
          await refresh();
        }}
      />
      <h3 style={{ fontSize: 'var(--text-lg)', marginTop: 'var(--space-5)' }}>Your keys</h3>
      {keys.isPending ? (
        <p className="ui-row" role="status">
          <Spinner /> <span>Loading your API keys...</span>
        </p>
      ) : keys.isError ? (
        <LoadFailure what="your API keys" error={keys.error} onRetry={() => void keys.refetch()} />
      ) : keys.data.apiKeys.length === 0 ? (
        <p className="ui-muted">No API keys yet.</p>
      ) : (
        <ul className="shell-access-list" aria-label="API keys">
          {keys.data.apiKeys.map((key) => (
            <ApiKeyRow
              key={key.id}
              apiKey={key}
              onRevoke={() => dispatch({ kind: 'askRemove', target: { id: key.id, label: key.name } })}
            />
          ))}
        </ul>
      )}
      <ConfirmRemoval
        target={state.confirming}
        title="Revoke this API key?"
        confirmLabel="Revoke key"
        busyLabel="Revoking..."
        removing={state.removing}
        onConfirm={() => void revoke()}
        onCancel={() => dispatch({ kind: 'cancelRemove' })}
      >
        <p>
          <strong>{state.confirming?.label}</strong> stops working at once: every system using it is refused
          from its next call. This cannot be undone.
        </p>
      </ConfirmRemoval>
    </section>
  );
}

export function ApiKeyRow({ apiKey, onRevoke }: { apiKey: ApiKeySummary; onRevoke: () => void }) {
  return (
    <li className="shell-access-item">
      <div className="shell-access-item__main">
        <p className="shell-access-item__title">
          <strong>{apiKey.name}</strong> <code className="shell-access-item__code">{apiKey.prefix}…</code>
        </p>
        <dl className="shell-access-facts">
          <div>
            <dt>Scopes</dt>
            <dd>{scopesText(apiKey.scopes)}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{whenText(apiKey.createdAt)}</dd>
          </div>
          <div>
            <dt>Last used</dt>
            <dd>{whenText(apiKey.lastUsedAt)}</dd>
          </div>
          {apiKey.expiresAt && (
            <div>
              <dt>Expires</dt>
              <dd>{whenText(apiKey.expiresAt)}</dd>
            </div>
          )}
        </dl>
      </div>
      <Button size="sm" variant="danger" onClick={onRevoke} aria-label={`Revoke ${apiKey.name}`}>
        Revoke
      </Button>
    </li>
  );
}

interface CreatedKey {
  id: string;
  name: string;
  key: string;
}

function CreateApiKeyForm({ onCreated }: { onCreated: (made: CreatedKey) => Promise<void> }) {
  const failure = useAuthFailure('API key not created');
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ApiKeyForm>({
    resolver: zodResolver(apiKeyFormSchema),
    defaultValues: apiKeyFormDefaults(),
  });

  const onSubmit = async (values: ApiKeyForm) => {
    const answer = await failure.call('createApiKey', { body: apiKeyBody(values) });
    if (!answer) return;
    if (!answer.ok) {
      failure.fail(answer.data?.error ?? 'Something went wrong. Please try again.');
      return;
    }
    reset(apiKeyFormDefaults());
    await onCreated(answer.data);
  };

  return (
    <form
      className="shell-form"
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      aria-labelledby="new-api-key-heading"
    >
      <h3 id="new-api-key-heading" style={{ fontSize: 'var(--text-lg)' }}>
        Create an API key
      </h3>
      <AuthAlerts failure={failure} />
      <TextField
        label="Key name"
        hint="What uses it, so you can tell your keys apart (e.g. CRM sync)"
        required
        maxLength={100}
        autoComplete="off"
        error={errors.name?.message}
        {...register('name')}
      />
      <fieldset
        className="shell-scopes"
        aria-describedby={errors.scopes ? 'api-key-scopes-error' : undefined}
      >
        <legend className="ui-label">Scopes</legend>
        <div className="shell-scopes__grid">
          {SCOPE_OPTIONS.map((option) => (
            <Checkbox key={option.value} label={option.label} value={option.value} {...register('scopes')} />
          ))}
        </div>
        <FieldError id="api-key-scopes-error">{errors.scopes?.message}</FieldError>
      </fieldset>
      <Button type="submit" loading={isSubmitting} loadingText="Creating...">
        Create API key
      </Button>
    </form>
  );
}
