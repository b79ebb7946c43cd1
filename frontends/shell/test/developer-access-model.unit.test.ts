import { API_KEY_SCOPES, WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGES } from '@lsp/contracts';
import {
  type AccessState,
  API_KEY_FORM_MESSAGES,
  WEBHOOK_FORM_MESSAGES,
  accessReducer,
  deliveryOutcome,
  apiKeyBody,
  apiKeyFormDefaults,
  apiKeyFormSchema,
  initialAccessState,
  scopeLabel,
  scopesText,
  webhookBody,
  webhookFormDefaults,
  webhookFormSchema,
  whenText,
} from '../src/account/developer-access-model';

const revealed = { id: 'k1', label: 'CRM sync', secret: 'lsp_secret' };
const run = (...actions: Parameters<typeof accessReducer>[1][]): AccessState =>
  actions.reduce(accessReducer, initialAccessState);

describe('the account page’s API keys and webhooks model', () => {
  it('shows a new secret until it is dismissed, and says when it was copied', () => {
    let state = run({ kind: 'copied' });
    expect(state.copied).toBe(false); // nothing shown, nothing copied
    state = accessReducer(state, { kind: 'created', revealed });
    expect(state.revealed).toEqual(revealed);
    state = accessReducer(state, { kind: 'copied' });
    expect(state.copied).toBe(true);
    // A second secret replaces the first and has not been copied yet.
    state = accessReducer(state, { kind: 'created', revealed: { ...revealed, id: 'k2', secret: 'other' } });
    expect(state).toMatchObject({ revealed: { id: 'k2' }, copied: false });
    state = accessReducer(state, { kind: 'dismissSecret' });
    expect(state).toMatchObject({ revealed: null, copied: false });
  });

  it('removes only after a confirmation, and keeps the dialog while the removal runs', () => {
    const target = { id: 'k1', label: 'CRM sync' };
    expect(run({ kind: 'removeStarted' }).removing).toBe(false); // nothing confirmed yet
    let state = run({ kind: 'askRemove', target }, { kind: 'removeStarted' });
    expect(state).toMatchObject({ confirming: target, removing: true });
    // While it runs, neither Cancel nor another row's Revoke changes what is being removed.
    expect(accessReducer(state, { kind: 'cancelRemove' })).toBe(state);
    expect(accessReducer(state, { kind: 'askRemove', target: { id: 'k2', label: 'x' } })).toBe(state);
    // A refused removal leaves the dialog open to try again or cancel.
    state = accessReducer(state, { kind: 'removeFailed' });
    expect(state).toMatchObject({ confirming: target, removing: false });
    expect(accessReducer(state, { kind: 'cancelRemove' }).confirming).toBeNull();
  });

  it('forgets the secret, details and action of what was removed, and only of that', () => {
    const open = run(
      { kind: 'created', revealed },
      { kind: 'copied' },
      { kind: 'toggleOpen', id: 'k1' },
      { kind: 'busy', id: 'k1' },
      { kind: 'askRemove', target: { id: 'k1', label: 'CRM sync' } },
      { kind: 'removeStarted' },
    );
    expect(accessReducer(open, { kind: 'removed', id: 'k1' })).toEqual(initialAccessState);
    const other = accessReducer(open, { kind: 'removed', id: 'k9' });
    expect(other).toMatchObject({ revealed, copied: true, open: 'k1', busy: 'k1', confirming: null });
  });

  it('runs one row’s action at a time and opens one row’s details at a time', () => {
    let state = run({ kind: 'busy', id: 'w1' }, { kind: 'busy', id: 'w2' });
    expect(state.busy).toBe('w1');
    state = accessReducer(state, { kind: 'idle' });
    expect(state.busy).toBeNull();
    state = run({ kind: 'toggleOpen', id: 'w1' }, { kind: 'toggleOpen', id: 'w2' });
    expect(state.open).toBe('w2');
    expect(accessReducer(state, { kind: 'toggleOpen', id: 'w2' }).open).toBeNull();
  });

  it('ticks every scope at first and sends those ticked in the contracts’ order', () => {
    expect(apiKeyBody(apiKeyFormDefaults())).toEqual({ name: '', scopes: [...API_KEY_SCOPES] });
    expect(apiKeyBody({ name: 'CRM', scopes: ['dips:write', 'searches:read'] })).toEqual({
      name: 'CRM',
      scopes: ['searches:read', 'dips:write'],
    });
  });

  it('refuses a form without a name or without a scope, in the contract’s and the page’s words', () => {
    expect(apiKeyFormSchema.safeParse({ name: 'CRM', scopes: ['dips:read'] }).success).toBe(true);
    const noScope = apiKeyFormSchema.safeParse({ name: 'CRM', scopes: [] });
    expect(noScope.error?.issues.map((i) => i.message)).toEqual([API_KEY_FORM_MESSAGES.scopesEmpty]);
    const noName = apiKeyFormSchema.safeParse({ name: '   ', scopes: ['dips:read'] });
    expect(noName.error?.issues.map((i) => i.message)).toEqual(['Name is required']);
  });

  it('names scopes as a person reads them', () => {
    expect(scopeLabel('dips:write')).toBe('DIPs and applications: write');
    expect(scopesText([...API_KEY_SCOPES].reverse())).toBe('All scopes');
    expect(scopesText(['shares:write', 'searches:read'])).toBe('Searches: read, Shares: write');
  });

  it('reads a time in UK time, and one never set as never', () => {
    expect(whenText('2026-07-01T09:30:00.000Z')).toBe('1 July 2026 at 10:30');
    expect(whenText(null)).toBe('Never');
    expect(whenText(undefined, 'Not yet')).toBe('Not yet');
  });
});

describe('the account page’s webhooks model', () => {
  it('ticks every event at first and sends the trimmed URL with those ticked in the contracts’ order', () => {
    expect(webhookBody(webhookFormDefaults())).toEqual({ url: '', events: [...WEBHOOK_EVENT_TYPES] });
    expect(
      webhookBody({ url: ' https://crm.example.com/h ', events: ['share.viewed', 'dip.created'] }),
    ).toEqual({ url: 'https://crm.example.com/h', events: ['dip.created', 'share.viewed'] });
  });

  it('refuses a form without a URL, with a URL that is not one, or without an event', () => {
    const messages = (form: unknown) =>
      webhookFormSchema.safeParse(form).error?.issues.map((issue) => issue.message) ?? [];
    expect(messages({ url: 'https://crm.example.com/h', events: ['dip.created'] })).toEqual([]);
    expect(messages({ url: ' ', events: ['dip.created'] })).toEqual([WEBHOOK_MESSAGES.urlRequired]);
    expect(messages({ url: 'crm.example.com', events: ['dip.created'] })).toEqual([
      WEBHOOK_MESSAGES.urlInvalid,
    ]);
    expect(messages({ url: 'https://crm.example.com/h', events: [] })).toEqual([
      WEBHOOK_FORM_MESSAGES.eventsEmpty,
    ]);
  });

  it('says how a try went: delivered with its status, refused with its status, or why no answer came', () => {
    const delivery = {
      eventId: 'msg_1',
      type: 'webhook.test',
      attempt: 1,
      statusCode: 204,
      error: null,
      delivered: true,
      at: '2026-07-01T09:30:00.000Z',
      durationMs: 12,
    };
    expect(deliveryOutcome(delivery)).toEqual({ text: 'Delivered (204)', variant: 'success' });
    expect(deliveryOutcome({ ...delivery, delivered: false, statusCode: 500 })).toEqual({
      text: 'Failed: HTTP 500',
      variant: 'danger',
    });
    expect(deliveryOutcome({ ...delivery, delivered: false, statusCode: null, error: 'timed out' })).toEqual({
      text: 'Failed: timed out',
      variant: 'danger',
    });
  });
});
