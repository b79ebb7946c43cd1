import { searchPayloadSchemas } from '@lsp/contracts';
import { badRequest, HttpError, parseInput, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type LeadCaptureDeps, captureLead } from '../searching/leads';

export type LeadRouteDeps = LeadCaptureDeps;

/** Problems inside the search payload name their field as `searchPayload.<field>`. */
function parseSearchPayload<S extends Parameters<typeof parseInput>[0]>(schema: S, payload: unknown) {
  try {
    return parseInput(schema, payload);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const fields = Object.fromEntries(
      Object.entries((err.details?.fields ?? {}) as Record<string, string>).map(([key, message]) => [
        `searchPayload.${key}`,
        message,
      ]),
    );
    throw badRequest(`Search payload: ${err.message}`, { fields });
  }
}

/** POST /api/leads: the lead dialog's answers with the search they came with. */
export function registerLeadRoutes(app: FastifyInstance, deps: LeadRouteDeps) {
  declareRoute(app, 'captureLead', async (request, reply) => {
    const { body } = request;
    const payload = parseSearchPayload(searchPayloadSchemas[body.searchType], body.searchPayload);
    const { leadId, score } = await captureLead(deps, body, body.searchType, payload, {
      userId: request.caller?.userId ?? null,
      requestId: request.id,
    });
    reply.status(201);
    return { success: true, lead: { id: leadId }, lendabilityScore: score };
  });
}
