import { searchPayloadSchemas } from '@lsp/contracts';
import { badRequest, HttpError, parseInput, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { computeLendabilityScore, lendabilityDealFor, searchPanel } from '../engine';
import type { PanelStore } from '../data/panel-store';
import type { LeadRepository } from '../data/leads';
import { leadCapturedEventFor, newLeadDocument } from './search-runner';

export interface LeadRouteDeps {
  panels: PanelStore;
  leads: LeadRepository;
}

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

/**
 * POST /api/leads: the lead dialog's answers with the search they came with (bridging and commercial
 * post it here). The search payload is validated like a search, and the deal is sized against the
 * panel so the Lendability Score uses the loan to value lenders would actually offer.
 */
export function registerLeadRoutes(app: FastifyInstance, deps: LeadRouteDeps) {
  declareRoute(app, 'captureLead', async (request, reply) => {
    const { body } = request;
    const payload = parseSearchPayload(searchPayloadSchemas[body.searchType], body.searchPayload);
    const { offers } = searchPanel(body.searchType, payload, deps.panels.current());
    const score = computeLendabilityScore(
      {
        propertiesOwned: body.propertiesOwned,
        hasViewedProperty: payload.hasViewedProperty,
        ownsProperty: payload.ownsProperty,
        agreedPurchasePrice: payload.agreedPurchasePrice,
      },
      lendabilityDealFor(body.searchType, payload, offers),
    );
    const lead = newLeadDocument(body, body.searchType, payload, score, new Date(), {
      searchRunId: null,
      userId: request.caller?.userId ?? null,
    });
    await deps.leads.insert(lead, [leadCapturedEventFor(lead, request.id)]);
    reply.status(201);
    return { success: true, lead: { id: lead._id }, lendabilityScore: score };
  });
}
