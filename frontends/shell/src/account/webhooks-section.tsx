// The account page's webhooks: add an endpoint (its URL and the events it wants) and see its signing
// secret this once with Copy, list the endpoints, send one a test, see its latest delivery tries
// (event, attempt, outcome, time), and remove one after a confirmation.
import { zodResolver } from '@hookform/resolvers/zod';
import { WEBHOOK_EVENT_TYPES, type WebhookSummary } from '@lsp/contracts';
import {
  Badge,
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
  WEBHOOK_EVENT_LABELS,
  type WebhookForm,
  accessReducer,
  deliveryOutcome,
  initialAccessState,
  webhookBody,
  webhookFormDefaults,
  webhookFormSchema,
  whenText,
} from './developer-access-model';
import { LoadFailure } from './load-failure';
import { RevealedSecretPanel } from './revealed-secret';

export const WEBHOOKS_QUERY_KEY = ['webhooks'] as const;
export const webhookDeliveriesKey = (webhookId: string) => ['webhook-deliveries', webhookId] as const;
/** While an endpoint's deliveries are open they are asked for again this often (tries arrive later). */
export const DELIVERIES_REFRESH_MS = 5000;

export function WebhooksSection() {
  const [state, dispatch] = useReducer(accessReducer, initialAccessState);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const webhooks = useQuery({
    queryKey: WEBHOOKS_QUERY_KEY,
    queryFn: ({ signal }) => requestApi('listWebhooks', undefined, { signal }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY });

  const sendTest = async (webhook: WebhookSummary) => {
    dispatch({ kind: 'busy', id: webhook.id });
    try {
      const answer = await callApi('testWebhook', { params: { webhookId: webhook.id } });
      if (!answer.ok) {
        toast(refusalToast('Test not sent', answer.data, 'Something went wrong. Please try again.'));
        return;
      }
      toast({
        title: 'Test sent',
        description: `A ${answer.data.type} delivery is on its way to ${webhook.url}`,
        variant: 'success',
      });
      if (state.open !== webhook.id) dispatch({ kind: 'toggleOpen', id: webhook.id });
      await queryClient.invalidateQueries({ queryKey: webhookDeliveriesKey(webhook.id) });
    } catch {
      toast({ title: 'Test not sent', description: 'Network error', variant: 'error' });
    } finally {
      dispatch({ kind: 'idle' });
    }
  };

  const remove = async () => {
    const target = state.confirming;
    if (!target) return;
    dispatch({ kind: 'removeStarted' });
    try {
      const answer = await callApi('deleteWebhook', { params: { webhookId: target.id } });
      if (!answer.ok) {
        dispatch({ kind: 'removeFailed' });
        toast(refusalToast('Remove failed', answer.data, 'Something went wrong. Please try again.'));
        return;
      }
      dispatch({ kind: 'removed', id: target.id });
      toast({
        title: 'Webhook removed',
        description: `Nothing more is sent to ${target.label}`,
        variant: 'success',
      });
    } catch {
      dispatch({ kind: 'removeFailed' });
      toast({ title: 'Remove failed', description: 'Network error', variant: 'error' });
    }
    await refresh();
  };

  return (
    <section aria-labelledby="webhooks-heading" className="shell-account__section">
      <h2 id="webhooks-heading" style={{ fontSize: 'var(--text-xl)' }}>
        Webhooks
      </h2>
      <p className="ui-muted">
        Your system is told as things happen: each event is POSTed to your endpoint, signed with its secret
        (Standard Webhooks), and retried for about a day until it answers 2xx.
      </p>
      {state.revealed && (
        <RevealedSecretPanel
          revealed={state.revealed}
          what="signing secret"
          copied={state.copied}
          onCopied={() => dispatch({ kind: 'copied' })}
          onDone={() => dispatch({ kind: 'dismissSecret' })}
        >
          Your endpoint checks each delivery&apos;s webhook-signature with it.
        </RevealedSecretPanel>
      )}
      <AddWebhookForm
        onAdded={async (added) => {
          dispatch({ kind: 'created', revealed: { id: added.id, label: added.url, secret: added.secret } });
          toast({ title: 'Webhook added', description: `Events go to ${added.url}`, variant: 'success' });
          await refresh();
        }}
      />
      <h3 style={{ fontSize: 'var(--text-lg)', marginTop: 'var(--space-5)' }}>Your endpoints</h3>
      {webhooks.isPending ? (
        <p className="ui-row" role="status">
          <Spinner /> <span>Loading your webhooks...</span>
        </p>
      ) : webhooks.isError ? (
        <LoadFailure what="your webhooks" error={webhooks.error} onRetry={() => void webhooks.refetch()} />
      ) : webhooks.data.webhooks.length === 0 ? (
        <p className="ui-muted">No webhooks yet.</p>
      ) : (
        <ul className="shell-access-list" aria-label="Webhook endpoints">
          {webhooks.data.webhooks.map((webhook) => (
            <WebhookRow
              key={webhook.id}
              webhook={webhook}
              testing={state.busy === webhook.id}
              anyTesting={state.busy !== null}
              open={state.open === webhook.id}
              onTest={() => void sendTest(webhook)}
              onToggle={() => dispatch({ kind: 'toggleOpen', id: webhook.id })}
              onRemove={() => dispatch({ kind: 'askRemove', target: { id: webhook.id, label: webhook.url } })}
            />
          ))}
        </ul>
      )}
      <ConfirmRemoval
        target={state.confirming}
        title="Remove this webhook?"
        confirmLabel="Remove webhook"
        busyLabel="Removing..."
        removing={state.removing}
        onConfirm={() => void remove()}
        onCancel={() => dispatch({ kind: 'cancelRemove' })}
      >
        <p>
          Nothing more is sent to{' '}
          <strong className="shell-access-item__code">{state.confirming?.label}</strong>, including retries
          still waiting. This cannot be undone.
        </p>
      </ConfirmRemoval>
    </section>
  );
}

export interface WebhookRowProps {
  webhook: WebhookSummary;
  testing: boolean;
  anyTesting: boolean;
  open: boolean;
  onTest: () => void;
  onToggle: () => void;
  onRemove: () => void;
}

export function WebhookRow({
  webhook,
  testing,
  anyTesting,
  open,
  onTest,
  onToggle,
  onRemove,
}: WebhookRowProps) {
  const disabled = webhook.status === 'disabled';
  const deliveriesId = `webhook-deliveries-${webhook.id}`;
  return (
    <li className="shell-access-item shell-access-item--stacked">
      <div className="shell-access-item__main">
        <p className="shell-access-item__title">
          <code className="shell-access-item__code">{webhook.url}</code>{' '}
          {disabled ? <Badge variant="danger">Disabled</Badge> : <Badge variant="success">Enabled</Badge>}
        </p>
        <dl className="shell-access-facts">
          <div>
            <dt>Events</dt>
            <dd>{webhook.events.join(', ')}</dd>
          </div>
          <div>
            <dt>Added</dt>
            <dd>{whenText(webhook.createdAt)}</dd>
          </div>
          {webhook.disabledAt && (
            <div>
              <dt>Disabled</dt>
              <dd>{whenText(webhook.disabledAt)} (every try of a delivery failed)</dd>
            </div>
          )}
        </dl>
      </div>
      <div className="shell-access-item__actions">
        <Button
          size="sm"
          variant="secondary"
          loading={testing}
          loadingText="Sending..."
          disabled={disabled || anyTesting}
          onClick={onTest}
          aria-label={`Send test to ${webhook.url}`}
        >
          Send test
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={onToggle}
          aria-expanded={open}
          aria-controls={deliveriesId}
          aria-label={`Deliveries to ${webhook.url}`}
        >
          Deliveries
        </Button>
        <Button size="sm" variant="danger" onClick={onRemove} aria-label={`Remove ${webhook.url}`}>
          Remove
        </Button>
      </div>
      {open && <Deliveries id={deliveriesId} webhookId={webhook.id} url={webhook.url} />}
    </li>
  );
}

function Deliveries({ id, webhookId, url }: { id: string; webhookId: string; url: string }) {
  const deliveries = useQuery({
    queryKey: webhookDeliveriesKey(webhookId),
    queryFn: ({ signal }) => requestApi('listWebhookDeliveries', { params: { webhookId } }, { signal }),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
  let content;
  if (deliveries.isPending)
    content = (
      <p className="ui-row" role="status">
        <Spinner /> <span>Loading deliveries...</span>
      </p>
    );
  else if (deliveries.isError)
    content = (
      <LoadFailure what="the deliveries" error={deliveries.error} onRetry={() => void deliveries.refetch()} />
    );
  else if (deliveries.data.deliveries.length === 0)
    content = <p className="ui-muted">Nothing sent yet. Send a test to see one here.</p>;
  else
    content = (
      <ul className="shell-deliveries" aria-label={`Deliveries to ${url}`}>
        {deliveries.data.deliveries.map((delivery) => {
          const outcome = deliveryOutcome(delivery);
          return (
            <li key={`${delivery.eventId}-${delivery.attempt}`} className="shell-deliveries__item">
              <code className="shell-access-item__code">{delivery.type}</code>
              <span>Attempt {delivery.attempt}</span>
              <Badge variant={outcome.variant}>{outcome.text}</Badge>
              <span className="ui-muted">
                {whenText(delivery.at)} · {delivery.durationMs} ms
              </span>
            </li>
          );
        })}
      </ul>
    );
  return (
    <div id={id} className="shell-deliveries__panel">
      <div className="ui-row shell-deliveries__header">
        <h4 style={{ fontSize: 'var(--text-md)', margin: 0 }}>Latest deliveries</h4>
        <Button
          size="sm"
          variant="link"
          loading={deliveries.isFetching && !deliveries.isPending}
          loadingText="Refreshing..."
          onClick={() => void deliveries.refetch()}
        >
          Refresh
        </Button>
      </div>
      {content}
    </div>
  );
}

interface AddedWebhook {
  id: string;
  url: string;
  secret: string;
}

function AddWebhookForm({ onAdded }: { onAdded: (added: AddedWebhook) => Promise<void> }) {
  const failure = useAuthFailure('Webhook not added');
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<WebhookForm>({
    resolver: zodResolver(webhookFormSchema),
    defaultValues: webhookFormDefaults(),
  });

  const onSubmit = async (values: WebhookForm) => {
    const answer = await failure.call('createWebhook', { body: webhookBody(values) });
    if (!answer) return;
    if (!answer.ok) {
      failure.fail(answer.data?.error ?? 'Something went wrong. Please try again.');
      return;
    }
    reset(webhookFormDefaults());
    await onAdded(answer.data);
  };

  return (
    <form
      className="shell-form"
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      aria-labelledby="new-webhook-heading"
    >
      <h3 id="new-webhook-heading" style={{ fontSize: 'var(--text-lg)' }}>
        Add a webhook
      </h3>
      <AuthAlerts failure={failure} />
      <TextField
        label="Endpoint URL"
        hint="An https:// address of your system that answers 2xx within 10 seconds"
        type="url"
        inputMode="url"
        required
        autoComplete="off"
        placeholder="https://crm.example.com/hooks/loans"
        error={errors.url?.message}
        {...register('url')}
      />
      <fieldset
        className="shell-scopes"
        aria-describedby={errors.events ? 'webhook-events-error' : undefined}
      >
        <legend className="ui-label">Events</legend>
        <div className="shell-scopes__list">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <Checkbox
              key={type}
              label={
                <>
                  {WEBHOOK_EVENT_LABELS[type]} <code className="shell-access-item__code">{type}</code>
                </>
              }
              value={type}
              {...register('events')}
            />
          ))}
        </div>
        <FieldError id="webhook-events-error">{errors.events?.message}</FieldError>
      </fieldset>
      <Button type="submit" loading={isSubmitting} loadingText="Adding...">
        Add webhook
      </Button>
    </form>
  );
}
