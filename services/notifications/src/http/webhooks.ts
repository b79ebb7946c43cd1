import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOKS_PER_USER_MAX,
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookEventType,
} from '@lsp/contracts';
import { badRequest, conflict, declareRoute, notFound } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Queue } from 'bullmq';
import { type WebhookJob, enqueueWebhook } from '../webhooks/delivery';
import { type WebhookStore, newWebhookSecret } from '../webhooks/store';
import { type Resolve, WebhookTargetError, checkTarget } from '../webhooks/targets';

export interface WebhookRouteDeps {
  store: WebhookStore;
  queue: Queue<WebhookJob>;
  allowPrivateTargets: boolean;
  resolve?: Resolve;
}

/**
 * A user's webhook endpoints: add (the URL checked: https, public addresses), list, delete, send a
 * test delivery, list the tries. Every route reads and changes only the caller's own endpoints:
 * another user's id is 404, as an unknown one.
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps) {
  const { store } = deps;
  const ownedOrNotFound = async (userId: string, id: string) => {
    const endpoint = await store.owned(userId, id);
    if (!endpoint) throw notFound(WEBHOOK_MESSAGES.notFound);
    return endpoint;
  };

  declareRoute(app, 'createWebhook', async (request, reply) => {
    const { userId } = request.caller;
    const { url } = request.body;
    try {
      await checkTarget(url, deps.allowPrivateTargets, deps.resolve);
    } catch (err) {
      if (err instanceof WebhookTargetError) throw badRequest(err.message, { fields: { url: err.message } });
      throw err;
    }
    if ((await store.count(userId)) >= WEBHOOKS_PER_USER_MAX) throw badRequest(WEBHOOK_MESSAGES.tooMany);
    const events = [...new Set(request.body.events)] as WebhookEventType[];
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
    await store.create(doc);
    reply.status(201);
    return { id: doc._id, url, events, secret: doc.secret, createdAt: doc.createdAt.toISOString() };
  });

  declareRoute(app, 'listWebhooks', async (request) => ({
    webhooks: await store.list(request.caller.userId),
  }));

  declareRoute(app, 'deleteWebhook', async (request, reply) => {
    const { userId } = request.caller;
    if (!(await store.delete(userId, request.params.webhookId))) throw notFound(WEBHOOK_MESSAGES.notFound);
    await store.deleteTries(request.params.webhookId);
    return reply.status(204).send();
  });

  declareRoute(app, 'testWebhook', async (request, reply) => {
    const endpoint = await ownedOrNotFound(request.caller.userId, request.params.webhookId);
    if (endpoint.status !== 'enabled') throw conflict(WEBHOOK_MESSAGES.disabled);
    const eventId = randomUUID();
    await enqueueWebhook(deps.queue, endpoint._id, eventId, {
      type: WEBHOOK_TEST_EVENT_TYPE,
      timestamp: new Date().toISOString(),
      data: { webhookId: endpoint._id, message: 'A test delivery from LoanSearch UK' },
    });
    reply.status(202);
    return { eventId, type: WEBHOOK_TEST_EVENT_TYPE };
  });

  declareRoute(app, 'listWebhookDeliveries', async (request) => {
    const endpoint = await ownedOrNotFound(request.caller.userId, request.params.webhookId);
    return { deliveries: await store.tries(endpoint._id) };
  });
}
