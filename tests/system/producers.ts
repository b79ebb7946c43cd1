/**
 * Every route and worker that writes events, driven through the gateway, and every consumer of each
 * event: with the relays' poll at an hour, an event reaches its consumers only if the process that
 * committed it published it at once.
 */
import { randomUUID } from 'node:crypto';
import { SEARCH_PAYLOADS, type SignedInUser, sameOrigin, signUpVerified } from '../../scripts/lib/journeys';
import { loadDefaultPanel, panelWithRatesCut, serialisePanel } from '../../services/search/src/panel';
import {
  APPLICATION,
  type ProcessName,
  SYSTEM_OPS_EMAIL,
  type Stack,
  eventually,
  metricSum,
  metricsOf,
} from './event-chain';

/** Who publishes each event type, and the consumer groups (with their process) that handle it. */
export const EVENT_ROUTES: Record<
  string,
  { producer: ProcessName; consumers: Array<[ProcessName, string]> }
> = {
  'identity.user.registered': {
    producer: 'identity',
    consumers: [
      ['sharing', 'sharing-registrations'],
      ['notifications', 'notifications-alerts'],
    ],
  },
  'identity.verification.requested': {
    producer: 'identity',
    consumers: [['notifications', 'notifications']],
  },
  'identity.user.verified': { producer: 'identity', consumers: [] },
  'identity.password-reset.requested': {
    producer: 'identity',
    consumers: [['notifications', 'notifications']],
  },
  'identity.password.changed': { producer: 'identity', consumers: [['notifications', 'notifications']] },
  'search.completed': { producer: 'search', consumers: [] },
  'search.saved': { producer: 'search', consumers: [['dip', 'dip-searches']] },
  'lead.captured': { producer: 'search', consumers: [] },
  'dip.created': { producer: 'dip', consumers: [['sharing', 'sharing']] },
  'dip.link.regenerated': { producer: 'dip', consumers: [['sharing', 'sharing']] },
  'dip.expiry.changed': { producer: 'dip', consumers: [['sharing', 'sharing']] },
  'dip.revoked': { producer: 'dip', consumers: [['sharing', 'sharing']] },
  'dip.pdf.rendered': { producer: 'pdf-worker', consumers: [] },
  'application.submitted': { producer: 'dip', consumers: [['search', 'search']] },
  'share.created': {
    producer: 'sharing',
    consumers: [
      ['dip', 'dip-access'],
      ['notifications', 'notifications-sharing'],
    ],
  },
  'share.viewed': { producer: 'sharing', consumers: [['dip', 'dip-access']] },
  'share.revoked': { producer: 'sharing', consumers: [['dip', 'dip-access']] },
  'deal.shared': { producer: 'sharing', consumers: [['notifications', 'notifications-sharing']] },
  'deal.viewed': { producer: 'sharing', consumers: [] },
  'referral.created': { producer: 'sharing', consumers: [['notifications', 'notifications-sharing']] },
  // Search's every-instance group (search-panel@<instance>) is one per process: panel-switch.int.test.ts.
  'panel.activated': {
    producer: 'search',
    consumers: [
      ['search', 'search-repricing'],
      ['dip', 'dip-panel'],
    ],
  },
  'search.repriced': { producer: 'repricing-worker', consumers: [['notifications', 'notifications-alerts']] },
  'dip.product.changed': { producer: 'dip', consumers: [['notifications', 'notifications-alerts']] },
};

type Counts = Map<string, number>;

/** Published counts per type at each producer, and handled counts per type and group at each consumer. */
export async function eventCounts(stack: Stack): Promise<Counts> {
  const texts = new Map<ProcessName, string>();
  const text = async (name: ProcessName) => {
    if (!texts.has(name)) texts.set(name, await metricsOf(stack, name));
    return texts.get(name)!;
  };
  const counts: Counts = new Map();
  for (const [type, { producer, consumers }] of Object.entries(EVENT_ROUTES)) {
    counts.set(`published ${type}`, metricSum(await text(producer), 'events_published_total', { type }));
    for (const [process, group] of consumers)
      counts.set(
        `${group} handled ${type}`,
        metricSum(await text(process), 'event_propagation_seconds_count', { type, consumer: group }),
      );
  }
  return counts;
}

/** Does, once, everything that writes an event of each type in EVENT_ROUTES. */
export async function produceEveryEvent(stack: Stack, owner: SignedInUser): Promise<void> {
  const headers = sameOrigin(stack.url);
  const expectOk = async (what: string, answer: Promise<{ status: number; text: string }>) => {
    const res = await answer;
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
    return res as { status: number; text: string; json(): any };
  };
  // identity.user.registered, .verification.requested, .user.verified
  const person = await signUpVerified(stack.url, 'Producer Person');
  // identity.password-reset.requested, identity.password.changed
  await expectOk(
    'forgot password',
    person.client.post('/api/auth/forgot-password', { email: person.email }, { headers }),
  );
  await expectOk(
    'change password',
    person.client.post(
      '/api/auth/change-password',
      {
        currentPassword: person.password,
        password: 'another-long-password-2',
        confirmPassword: 'another-long-password-2',
      },
      { headers },
    ),
  );
  // search.completed, search.saved, lead.captured
  const searchData = { ...SEARCH_PAYLOADS.bridging, projectName: 'Every event' };
  const run = await expectOk('search', owner.client.post('/api/bridging', searchData, { headers }));
  const saved = await expectOk(
    'save search',
    owner.client.post(
      '/api/search',
      { userId: owner.userId, loanType: 'bridging', searchData, apiResponse: run.json() },
      { headers },
    ),
  );
  await expectOk(
    'lead',
    owner.client.post(
      '/api/leads',
      {
        name: 'Lead Person',
        email: `lead-${randomUUID()}@example.com`,
        propertiesOwned: '1',
        consent: true,
        searchType: 'bridging',
        searchPayload: searchData,
      },
      { headers },
    ),
  );
  // dip.created, share.created, share.viewed, dip.pdf.rendered, dip.link.regenerated,
  // dip.expiry.changed, dip.revoked (+ share.revoked: a regenerated link keeps the email recipient),
  // application.submitted
  const searchId = saved.json().search.id as string;
  const dip = await expectOk(
    'create DIP',
    owner.client.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 }, { headers }),
  );
  const dipId = dip.json().dipId as string;
  const shared = await expectOk(
    'share',
    owner.client.post(
      `/api/online-dip/${dipId}/share`,
      { recipients: [person.email], message: 'Look' },
      { headers },
    ),
  );
  const shareId = shared.json().results[0].shareId as string;
  await expectOk('mark viewed', person.client.post(`/api/shared/${shareId}/mark-viewed`, {}, { headers }));
  await expectOk('PDF', owner.client.get(`/api/online-dip/pdf/${dipId}`));
  await expectOk(
    'regenerate',
    owner.client.post(`/api/online-dip/${dipId}/regenerate-link`, {}, { headers }),
  );
  await expectOk('expiry', owner.client.post(`/api/online-dip/${dipId}/expiry`, {}, { headers }));
  await expectOk('revoke', owner.client.post(`/api/online-dip/${dipId}/revoke`, {}, { headers }));
  await expectOk(
    'apply',
    owner.client.post(
      '/api/dip-applications',
      { ...APPLICATION, userId: owner.userId, searchId, email: owner.email },
      { headers },
    ),
  );
  // deal.shared, deal.viewed, referral.created
  const deal = await expectOk(
    'deal share',
    owner.client.post(
      '/api/referrals/deal-share',
      {
        referralEmail: `deal-${randomUUID()}@example.com`,
        referrerId: owner.userId,
        // The run's own offer is shared: the request names the run and the offer's lender and product.
        loanData: JSON.stringify(run.json().data.Results[0]),
        searchRunId: run.json().data.SearchRunId,
        loanType: 'bridging',
      },
      { headers },
    ),
  );
  await expectOk(
    'deal viewed',
    owner.client.post(
      `/api/shared-deal/${encodeURIComponent(deal.json().signupToken)}/viewed`,
      {},
      { headers },
    ),
  );
  await expectOk(
    'referral',
    owner.client.post(
      '/api/referrals',
      { referrerName: 'Chain Owner', referralEmail: `friend-${randomUUID()}@example.com` },
      { headers },
    ),
  );
  // panel.activated; search.repriced (the owner's saved search, on rates a tenth lower);
  // dip.product.changed (a live DIP of the owner's, its product repriced)
  await expectOk(
    'live DIP',
    owner.client.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 }, { headers }),
  );
  await activateCheaperPanel(stack);
}

/**
 * An operator uploads and activates a lender panel cheaper than the stack's active one, so every
 * saved search and live DIP on it is re-priced. Returns the new panel's version.
 */
export async function activateCheaperPanel(stack: Stack): Promise<string> {
  const headers = sameOrigin(stack.url);
  const expectOk = async (what: string, answer: Promise<{ status: number; text: string }>) => {
    const res = await answer;
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
  };
  const operator = await operatorOf(stack);
  const version = `system-${randomUUID().slice(0, 8)}`;
  // Each activation on a stack cheaper than the one before, so every one moves the saved searches
  // and the DIP (a panel with the terms of the active one would change nothing).
  const activated = activations.get(stack) ?? 0;
  activations.set(stack, activated + 1);
  const cheaper = panelWithRatesCut(loadDefaultPanel(), version, 0.1 + 0.02 * activated);
  await expectOk(
    'upload panel',
    operator.client.post(
      '/api/ops/panel/drafts',
      { fileName: `${version}.jsonl`, content: serialisePanel(cheaper) },
      { headers },
    ),
  );
  await expectOk(
    'activate panel',
    operator.client.post(`/api/ops/panel/versions/${encodeURIComponent(version)}/activate`, {}, { headers }),
  );
  return version;
}

/** Lender panels produceEveryEvent has activated, per stack. */
const activations = new WeakMap<Stack, number>();

/** The stack's operator (SYSTEM_OPS_EMAIL), signed up once per stack. */
const operators = new WeakMap<Stack, Promise<SignedInUser>>();
function operatorOf(stack: Stack): Promise<SignedInUser> {
  if (!operators.has(stack))
    operators.set(stack, signUpVerified(stack.url, 'Panel Operator', SYSTEM_OPS_EMAIL));
  return operators.get(stack)!;
}

/** Waits until every event type was published again and handled again by each of its consumers. */
export async function everyEventHandled(stack: Stack, before: Counts): Promise<void> {
  let missing: string[] = [];
  await eventually(async () => {
    const now = await eventCounts(stack);
    missing = [...before].filter(([key, count]) => (now.get(key) ?? 0) <= count).map(([key]) => key);
    return missing.length === 0;
  }, 'every event to be published and handled').catch((err: Error) => {
    throw new Error(`${err.message}; still missing: ${missing.join(', ')}`);
  });
}
