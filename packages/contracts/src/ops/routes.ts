import { z } from 'zod';
import { INVALID_REQUEST, NOT_SIGNED_IN, type RouteResponse, defineRoute, errorAnswer } from '../api/route';
import {
  opsChainQuerySchema,
  opsChainResponseSchema,
  opsDeadLetterSchema,
  opsDeadLettersQuerySchema,
  opsDeadLettersResponseSchema,
  opsDiscardBodySchema,
  opsFeedQuerySchema,
  opsFeedStatsSchema,
  opsHealthResponseSchema,
  opsQueuesResponseSchema,
  opsReplayAllBodySchema,
  opsReplayResponseSchema,
  opsRetryJobResponseSchema,
} from './http';

/** The notifications service's public routes: the operations console (every one needs the ops role). */

/** Every ops route refuses callers who are signed out (401) or lack the ops role (403). */
const OPS_ONLY: Record<401 | 403, RouteResponse> = {
  401: NOT_SIGNED_IN,
  403: errorAnswer('Signed in without the ops role'),
};
const deadLetterIdParams = z.object({ id: z.string() });

export const OPS_ROUTES = [
  defineRoute({
    operationId: 'streamOpsEvents',
    method: 'GET',
    path: '/api/ops/events/stream',
    service: 'notifications',
    summary: 'The live event feed (server-sent events; resumes from Last-Event-ID)',
    auth: 'ops',
    query: opsFeedQuerySchema,
    responses: {
      200: {
        description: 'An event stream: one envelope per message, plus `dropped` and `stats` events',
        contentType: 'text/event-stream',
      },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
    },
  }),
  defineRoute({
    operationId: 'getOpsFeedStats',
    method: 'GET',
    path: '/api/ops/feed/stats',
    service: 'notifications',
    summary: "The feed's viewers in this process, drops, and events per type over time",
    auth: 'ops',
    responses: { 200: { description: 'The stats', schema: opsFeedStatsSchema }, ...OPS_ONLY },
  }),
  defineRoute({
    operationId: 'getCorrelationChain',
    method: 'GET',
    path: '/api/ops/events',
    service: 'notifications',
    summary: 'Every event of one correlation id, with what each consumer did with it',
    auth: 'ops',
    query: opsChainQuerySchema,
    responses: {
      200: { description: 'The chain in publish order', schema: opsChainResponseSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
    },
  }),
  defineRoute({
    operationId: 'listDeadLetters',
    method: 'GET',
    path: '/api/ops/dead-letters',
    service: 'notifications',
    summary: 'Dead letters per topic and the newest of them',
    auth: 'ops',
    query: opsDeadLettersQuerySchema,
    responses: {
      200: { description: 'The dead letters', schema: opsDeadLettersResponseSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
    },
  }),
  defineRoute({
    operationId: 'replayDeadLetters',
    method: 'POST',
    path: '/api/ops/dead-letters/replay',
    service: 'notifications',
    summary: 'Replay every open dead letter, or those of one topic',
    auth: 'ops',
    body: opsReplayAllBodySchema,
    responses: {
      200: { description: 'Replayed', schema: opsReplayResponseSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
    },
  }),
  defineRoute({
    operationId: 'replayDeadLetter',
    method: 'POST',
    path: '/api/ops/dead-letters/:id/replay',
    service: 'notifications',
    summary: 'Replay one dead letter',
    auth: 'ops',
    params: deadLetterIdParams,
    responses: {
      200: { description: 'Replayed', schema: opsReplayResponseSchema },
      ...OPS_ONLY,
      404: errorAnswer('No such dead letter'),
      409: errorAnswer('The dead letter was already replayed or discarded'),
    },
  }),
  defineRoute({
    operationId: 'discardDeadLetter',
    method: 'POST',
    path: '/api/ops/dead-letters/:id/discard',
    service: 'notifications',
    summary: 'Discard one dead letter, with a reason',
    auth: 'ops',
    params: deadLetterIdParams,
    body: opsDiscardBodySchema,
    responses: {
      200: { description: 'The discarded dead letter', schema: opsDeadLetterSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
      404: errorAnswer('No such dead letter'),
      409: errorAnswer('The dead letter was already replayed or discarded'),
    },
  }),
  defineRoute({
    operationId: 'listQueues',
    method: 'GET',
    path: '/api/ops/queues',
    service: 'notifications',
    summary: 'The job queues: counts and the newest failed jobs',
    auth: 'ops',
    responses: { 200: { description: 'The queues', schema: opsQueuesResponseSchema }, ...OPS_ONLY },
  }),
  defineRoute({
    operationId: 'retryQueueJob',
    method: 'POST',
    path: '/api/ops/queues/:queue/jobs/:jobId/retry',
    service: 'notifications',
    summary: 'Move a failed job back to waiting',
    auth: 'ops',
    params: z.object({ queue: z.string(), jobId: z.string() }),
    responses: {
      200: { description: 'Retried', schema: opsRetryJobResponseSchema },
      ...OPS_ONLY,
      404: errorAnswer('No such queue or job'),
      409: errorAnswer('The job has not failed'),
    },
  }),
  defineRoute({
    operationId: 'getPlatformHealth',
    method: 'GET',
    path: '/api/ops/health',
    service: 'notifications',
    summary: "Every process's health, latency and error rate, and consumer lag",
    auth: 'ops',
    responses: { 200: { description: 'The health grid', schema: opsHealthResponseSchema }, ...OPS_ONLY },
  }),
] as const;
