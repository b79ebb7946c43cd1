import { randomBytes, randomUUID } from 'node:crypto';
import {
  type CreateWebhookBody,
  WEBHOOKS_PER_USER_MAX,
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookEventType,
} from '@lsp/contracts';
import { badRequest, conflict, notFound } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import { type WebhookJob, enqueueWebhook } from '../webhooks/delivery';
import { type WebhookStore, newWebhookSecret } from '../webhooks/store';
import { type Resolve, WebhookTargetError, checkTarget } from '../webhooks/targets';

export interface WebhookEndpointDeps {
  store: WebhookStore;
  queue: Queue<WebhookJob>;
  allowPrivateTargets: boolean;
  resolve?: Resolve;
}

/** The user's own endpoint; another user's id is 404, as an unknown one. */
async function ownedEndpoint(deps: Pick<WebhookEndpointDeps, 'store'>, userId: string, id: string) {
  const endpoint = await deps.store.owned(userId, id);
  if (!endpoint) throw notFound(WEBHOOK_MESSAGES.notFound);
  return endpoint;
}

/**
 * Adds an endpoint: the URL must be https and reach public addresses only, and a user holds at most
 * WEBHOOKS_PER_USER_MAX. The answer is the only time the signing secret is shown.
 */
export async function createWebhook(deps: WebhookEndpointDeps, userId: string, body: CreateWebhookBody) {
  const { url } = body;
  try {
    await checkTarget(url, deps.allowPrivateTargets, deps.resolve);
  } catch (err) {
    if (err instanceof WebhookTargetError) throw badRequest(err.message, { fields: { url: err.message } });
    throw err;
  }
  if ((await deps.store.count(userId)) >= WEBHOOKS_PER_USER_MAX) throw badRequest(WEBHOOK_MESSAGES.tooMany);
  const events = [...new Set(body.events)] as WebhookEventType[];
  const doc = {
    _id: `wh_${randomBytes(12).toString('hex')}`,
    userId,
    url,
    events,
    secret: newWebhookSecret(),
    status: 'enabled' as const,
    createdAt: new Date(),
    disabledAt: null,
  };
  await deps.store.create(doc);
  return { id: doc._id, url, events, secret: doc.secret, createdAt: doc.createdAt.toISOString() };
}

export async function listWebhooks(deps: Pick<WebhookEndpointDeps, 'store'>, userId: string) {
  return { webhooks: await deps.store.list(userId) };
}

/** Removes the user's endpoint and the record of its tries. */
export async function deleteWebhook(
  deps: Pick<WebhookEndpointDeps, 'store'>,
  userId: string,
  webhookId: string,
): Promise<void> {
  if (!(await deps.store.delete(userId, webhookId))) throw notFound(WEBHOOK_MESSAGES.notFound);
  await deps.store.deleteTries(webhookId);
}

/** Queues a test delivery to an enabled endpoint of the user's; a disabled one is refused. */
export async function sendTestDelivery(
  deps: WebhookEndpointDeps,
  userId: string,
  webhookId: string,
): Promise<{ eventId: string; type: typeof WEBHOOK_TEST_EVENT_TYPE }> {
  const endpoint = await ownedEndpoint(deps, userId, webhookId);
  if (endpoint.status !== 'enabled') throw conflict(WEBHOOK_MESSAGES.disabled);
  const eventId = randomUUID();
  await enqueueWebhook(deps.queue, endpoint._id, eventId, {
    type: WEBHOOK_TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { webhookId: endpoint._id, message: 'A test delivery from LoanSearch UK' },
  });
  return { eventId, type: WEBHOOK_TEST_EVENT_TYPE };
}

export async function listWebhookDeliveries(
  deps: Pick<WebhookEndpointDeps, 'store'>,
  userId: string,
  webhookId: string,
) {
  const endpoint = await ownedEndpoint(deps, userId, webhookId);
  return { deliveries: await deps.store.tries(endpoint._id) };
}
