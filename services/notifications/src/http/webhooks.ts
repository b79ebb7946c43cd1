import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import {
  type WebhookEndpointDeps,
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  sendTestDelivery,
} from '../use-cases/webhook-endpoints';

/**
 * A user's webhook endpoints: add (the URL checked: https, public addresses), list, delete, send a
 * test delivery, list the tries. Every route reads and changes only the caller's own endpoints:
 * another user's id is 404, as an unknown one.
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookEndpointDeps) {
  declareRoute(app, 'createWebhook', async (request, reply) => {
    const created = await createWebhook(deps, request.caller.userId, request.body);
    reply.status(201);
    return created;
  });

  declareRoute(app, 'listWebhooks', async (request) => listWebhooks(deps, request.caller.userId));

  declareRoute(app, 'deleteWebhook', async (request, reply) => {
    await deleteWebhook(deps, request.caller.userId, request.params.webhookId);
    return reply.status(204).send();
  });

  declareRoute(app, 'testWebhook', async (request, reply) => {
    const queued = await sendTestDelivery(deps, request.caller.userId, request.params.webhookId);
    reply.status(202);
    return queued;
  });

  declareRoute(app, 'listWebhookDeliveries', async (request) =>
    listWebhookDeliveries(deps, request.caller.userId, request.params.webhookId),
  );
}
