// The account page's API keys and webhooks, kept apart from React so their rules are unit-tested: a
// secret is shown once (until dismissed, or until what it opens is removed), removal waits for a
// confirmation, one row's action runs at a time, and the forms' values become the bodies the
// contracts declare.
import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEventType,
  apiKeyScopeSchema,
  createApiKeyBodySchema,
  createWebhookBodySchema,
  webhookEventTypeSchema,
} from '@lsp/contracts';
import { formatUkDate } from '@lsp/contracts/src/display/format';

// ---- the section's state --------------------------------------------------------------------------

/** A secret shown this once: an API key, or a webhook's signing secret. */
export interface RevealedSecret {
  /** The id of the key or webhook it belongs to. */
  id: string;
  /** What the person called it (a key's name, a webhook's URL). */
  label: string;
  secret: string;
}

/** One row awaiting the person's confirmation before it is removed. */
export interface RemovalTarget {
  id: string;
  label: string;
}

export interface AccessState {
  revealed: RevealedSecret | null;
  /** Whether the revealed secret has been copied (the Copy button says 'Copied'). */
  copied: boolean;
  confirming: RemovalTarget | null;
  removing: boolean;
  /** The row whose own action runs (a webhook's Send test); one at a time. */
  busy: string | null;
  /** The row whose details are open (a webhook's deliveries). */
  open: string | null;
}

export const initialAccessState: AccessState = {
  revealed: null,
  copied: false,
  confirming: null,
  removing: false,
  busy: null,
  open: null,
};

export type AccessAction =
  | { kind: 'created'; revealed: RevealedSecret }
  | { kind: 'copied' }
  | { kind: 'dismissSecret' }
  | { kind: 'askRemove'; target: RemovalTarget }
  | { kind: 'cancelRemove' }
  | { kind: 'removeStarted' }
  | { kind: 'removeFailed' }
  | { kind: 'removed'; id: string }
  | { kind: 'busy'; id: string }
  | { kind: 'idle' }
  | { kind: 'toggleOpen'; id: string };

export function accessReducer(state: AccessState, action: AccessAction): AccessState {
  switch (action.kind) {
    case 'created':
      return { ...state, revealed: action.revealed, copied: false };
    case 'copied':
      return state.revealed ? { ...state, copied: true } : state;
    case 'dismissSecret':
      return { ...state, revealed: null, copied: false };
    case 'askRemove':
      // A removal already running keeps its dialog: a second target would lose the first.
      return state.removing ? state : { ...state, confirming: action.target };
    case 'cancelRemove':
      return state.removing ? state : { ...state, confirming: null };
    case 'removeStarted':
      return state.confirming ? { ...state, removing: true } : state;
    case 'removeFailed':
      return { ...state, removing: false };
    case 'removed': {
      // The secret of what was removed opens nothing any more; its details have nothing to show.
      const revealedGone = state.revealed?.id === action.id;
      return {
        ...state,
        confirming: null,
        removing: false,
        revealed: revealedGone ? null : state.revealed,
        copied: revealedGone ? false : state.copied,
        open: state.open === action.id ? null : state.open,
        busy: state.busy === action.id ? null : state.busy,
      };
    }
    case 'busy':
      return state.busy ? state : { ...state, busy: action.id };
    case 'idle':
      return { ...state, busy: null };
    case 'toggleOpen':
      return { ...state, open: state.open === action.id ? null : action.id };
  }
}

// ---- API keys -------------------------------------------------------------------------------------

const SCOPE_RESOURCES: Record<string, string> = {
  searches: 'Searches',
  dips: 'DIPs and applications',
  shares: 'Shares',
  webhooks: 'Webhooks',
};

/** 'dips:write' → 'DIPs and applications: write'. */
export function scopeLabel(scope: string): string {
  const [resource = '', access = ''] = scope.split(':');
  return `${SCOPE_RESOURCES[resource] ?? resource}: ${access}`;
}

/** The scopes' checkboxes, in the contracts' order (read before write, resource by resource). */
export const SCOPE_OPTIONS: readonly { value: ApiKeyScope; label: string }[] = API_KEY_SCOPES.map(
  (scope) => ({ value: scope, label: scopeLabel(scope) }),
);

export const API_KEY_FORM_MESSAGES = {
  scopesEmpty: 'Choose at least one scope',
} as const;

/** The create form: a name and the scopes ticked (all by default). */
export const apiKeyFormSchema = createApiKeyBodySchema.omit({ expiresInDays: true }).extend({
  scopes: apiKeyScopeSchema.array().min(1, API_KEY_FORM_MESSAGES.scopesEmpty),
});
export interface ApiKeyForm {
  name: string;
  scopes: ApiKeyScope[];
}

export const apiKeyFormDefaults = (): ApiKeyForm => ({ name: '', scopes: [...API_KEY_SCOPES] });

/** The body sent: the name, and the scopes ticked in the contracts' order. */
export function apiKeyBody(form: ApiKeyForm): { name: string; scopes: ApiKeyScope[] } {
  const ticked = new Set(form.scopes);
  return { name: form.name, scopes: API_KEY_SCOPES.filter((scope) => ticked.has(scope)) };
}

/** A key's scopes as the list shows them: 'All scopes' when it has every one. */
export function scopesText(scopes: readonly string[]): string {
  const held = new Set(scopes);
  if (API_KEY_SCOPES.every((scope) => held.has(scope))) return 'All scopes';
  return API_KEY_SCOPES.filter((scope) => held.has(scope))
    .map(scopeLabel)
    .join(', ');
}

/** A time in the lists ('26 November 2026 at 10:30'); never set reads as `never`. */
export function whenText(iso: string | null | undefined, never = 'Never'): string {
  return iso ? formatUkDate(iso, 'long-time') : never;
}

// ---- webhooks -------------------------------------------------------------------------------------

/** Each event an endpoint may subscribe to, as the checkbox names it. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'dip.created': 'A DIP of yours is created',
  'search.repriced': 'A lender panel change re-prices one of your saved searches',
  'dip.product.changed': 'A lender panel change withdraws or re-prices the product of your DIP',
  'share.viewed': 'Someone opens a DIP you shared',
};

export const WEBHOOK_FORM_MESSAGES = {
  eventsEmpty: 'Choose at least one event',
} as const;

/** The add form: the endpoint's URL (the service checks https and the address) and the events ticked. */
export const webhookFormSchema = createWebhookBodySchema.extend({
  events: webhookEventTypeSchema.array().min(1, WEBHOOK_FORM_MESSAGES.eventsEmpty),
});
export interface WebhookForm {
  url: string;
  events: WebhookEventType[];
}

export const webhookFormDefaults = (): WebhookForm => ({ url: '', events: [...WEBHOOK_EVENT_TYPES] });

/** The body sent: the URL, and the events ticked in the contracts' order. */
export function webhookBody(form: WebhookForm): { url: string; events: WebhookEventType[] } {
  const ticked = new Set(form.events);
  return { url: form.url.trim(), events: WEBHOOK_EVENT_TYPES.filter((type) => ticked.has(type)) };
}

/** How one try of a delivery went, as its row says it. */
export function deliveryOutcome(delivery: WebhookDelivery): {
  text: string;
  variant: 'success' | 'danger';
} {
  if (delivery.delivered)
    return { text: `Delivered (${delivery.statusCode ?? 'no status'})`, variant: 'success' };
  if (delivery.statusCode !== null) return { text: `Failed: HTTP ${delivery.statusCode}`, variant: 'danger' };
  return { text: `Failed: ${delivery.error ?? 'no answer'}`, variant: 'danger' };
}
