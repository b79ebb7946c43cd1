import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type LeadCaptureDeps, captureLead } from '../use-cases/leads';

/** POST /api/leads: the lead dialog's answers with the search they came with. */
export function registerLeadRoutes(app: FastifyInstance, deps: LeadCaptureDeps) {
  declareRoute(app, 'captureLead', async (request, reply) => {
    const captured = await captureLead(deps, request.body, {
      userId: request.caller?.userId ?? null,
      requestId: request.id,
    });
    reply.status(201);
    return captured;
  });
}
