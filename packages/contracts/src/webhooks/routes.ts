import { z } from 'zod';
import { INVALID_REQUEST, NOT_SIGNED_IN, NOT_VERIFIED, defineRoute, errorAnswer } from '../api/route';
import {
  WEBHOOKS_PER_USER_MAX,
  WEBHOOK_MESSAGES,
  createWebhookBodySchema,
  createdWebhookSchema,
  webhookDeliveriesResponseSchema,
  webhookParamsSchema,
  webhookSummarySchema,
  webhookTestResponseSchema,
} from './http';

/**
 * The notifications service's webhook routes: a user's endpoints for their own events. Every route
 * is owner-scoped (another user's endpoint is 404) and open to API keys with the `webhooks:*` scopes.
 */

const NOT_FOUND_ANSWER = errorAnswer(WEBHOOK_MESSAGES.notFound);

export const WEBHOOK_ROUTES = [
  defineRoute({
    operationId: 'createWebhook',
    method: 'POST',
    path: '/api/webhooks',
    service: 'notifications',
    summary: 'Add a webhook endpoint for some of your events (its signing secret is shown once)',
    description:
      'The URL must be https and its host must resolve to public addresses only (checked again at every ' +
      'delivery). Each delivery is signed per Standard Webhooks with `secret`; see `webhooks` in this document ' +
      `for each event's body. At most ${WEBHOOKS_PER_USER_MAX} endpoints per account.`,
    auth: 'session',
    verifiedEmail: true,
    apiKeyScope: 'webhooks:write',
    body: createWebhookBodySchema,
    responses: {
      201: { description: 'Added: `secret` is shown this once', schema: createdWebhookSchema },
      400: errorAnswer(
        `The request is invalid (\`error\` is the first problem, \`fields\` each): an unknown event, a URL that is not https or not public, or the account already has ${WEBHOOKS_PER_USER_MAX} endpoints`,
      ),
      401: NOT_SIGNED_IN,
      403: NOT_VERIFIED,
    },
  }),
  defineRoute({
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/api/webhooks',
    service: 'notifications',
    summary: 'Your webhook endpoints, newest first (never their secrets)',
    auth: 'session',
    verifiedEmail: true,
    apiKeyScope: 'webhooks:read',
    responses: {
      200: { description: 'The endpoints', schema: z.object({ webhooks: z.array(webhookSummarySchema) }) },
      401: NOT_SIGNED_IN,
      403: NOT_VERIFIED,
    },
  }),
  defineRoute({
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/api/webhooks/:webhookId',
    service: 'notifications',
    summary: 'Delete a webhook endpoint: nothing more is sent to it',
    auth: 'session',
    verifiedEmail: true,
    apiKeyScope: 'webhooks:write',
    params: webhookParamsSchema,
    responses: {
      204: { description: 'Deleted' },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: NOT_VERIFIED,
      404: NOT_FOUND_ANSWER,
    },
  }),
  defineRoute({
    operationId: 'testWebhook',
    method: 'POST',
    path: '/api/webhooks/:webhookId/test',
    service: 'notifications',
    summary: 'Send a `webhook.test` delivery to the endpoint (signed and retried like any other)',
    auth: 'session',
    verifiedEmail: true,
    apiKeyScope: 'webhooks:write',
    params: webhookParamsSchema,
    responses: {
      202: { description: 'Queued: its tries appear in the deliveries', schema: webhookTestResponseSchema },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: NOT_VERIFIED,
      404: NOT_FOUND_ANSWER,
      409: errorAnswer(WEBHOOK_MESSAGES.disabled),
    },
  }),
  defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/api/webhooks/:webhookId/deliveries',
    service: 'notifications',
    summary: "The endpoint's latest delivery tries, newest first: event, attempt, status or error, time",
    auth: 'session',
    verifiedEmail: true,
    apiKeyScope: 'webhooks:read',
    params: webhookParamsSchema,
    responses: {
      200: { description: 'The tries (at most 100)', schema: webhookDeliveriesResponseSchema },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: NOT_VERIFIED,
      404: NOT_FOUND_ANSWER,
    },
  }),
] as const;
