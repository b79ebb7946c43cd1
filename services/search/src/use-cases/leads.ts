import { randomUUID } from 'node:crypto';
import {
  type LeadBody,
  type LeadForm,
  SEARCH_EVENTS,
  type LoanType,
  type SearchPayloadByType,
  searchPayloadSchemas,
} from '@lsp/contracts';
import { HttpError, badRequest, parseInput } from '@lsp/service-kit';
import { type LendabilityScore, computeLendabilityScore, lendabilityDealFor, searchPanel } from '../engine';
import type { LeadRepository } from '../data/leads';
import type { LeadDocument } from '../data/models/leads';
import type { PanelStore } from '../data/panel-store';
import { definedFields } from './stored-fields';

export interface LeadCaptureDeps {
  panels: PanelStore;
  leads: LeadRepository;
}

export function newLeadDocument(
  lead: LeadForm,
  searchType: LoanType,
  searchPayload: object,
  score: LendabilityScore,
  now: Date,
  links: { searchRunId: string | null; userId: string | null },
): LeadDocument {
  const { userId: _claimed, ...payload } = searchPayload as Record<string, unknown>;
  return {
    _id: randomUUID(),
    name: lead.name,
    email: lead.email,
    phone: lead.phone ?? null,
    propertiesOwned: lead.propertiesOwned,
    contactPreference: lead.contactPreference,
    consent: lead.consent,
    searchType,
    searchPayload: definedFields(payload),
    lendabilityScore: score,
    searchRunId: links.searchRunId,
    userId: links.userId,
    createdAt: now,
  };
}

export function leadCapturedEventFor(lead: LeadDocument, correlationId: string) {
  return SEARCH_EVENTS.leadCaptured.envelope(
    {
      leadId: lead._id,
      name: lead.name,
      email: lead.email,
      ...(lead.phone ? { phone: lead.phone } : {}),
      propertiesOwned: lead.propertiesOwned,
      contactPreference: lead.contactPreference,
      searchType: lead.searchType,
      lendabilityScore: lead.lendabilityScore.score,
    },
    { correlationId },
  );
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
 * POST /api/leads: the lead dialog's answers with the search they came with, the search payload
 * checked against its loan type's schema.
 */
export async function captureLead(
  deps: LeadCaptureDeps,
  body: LeadBody,
  request: { userId: string | null; requestId: string },
) {
  const payload = parseSearchPayload(searchPayloadSchemas[body.searchType], body.searchPayload);
  const { leadId, score } = await storeScoredLead(deps, body, body.searchType, payload, request);
  return { success: true as const, lead: { id: leadId }, lendabilityScore: score };
}

/**
 * The lead dialog's answers with the search they came with (bridging and commercial post it on its
 * own): the deal is sized against the panel so the Lendability Score uses the loan to value lenders
 * would actually offer, and the lead is stored with its lead.captured.
 */
async function storeScoredLead<T extends LoanType>(
  deps: LeadCaptureDeps,
  lead: LeadForm,
  searchType: T,
  payload: SearchPayloadByType[T],
  request: { userId: string | null; requestId: string },
): Promise<{ leadId: string; score: LendabilityScore }> {
  const { offers } = searchPanel(searchType, payload, deps.panels.current());
  const score = computeLendabilityScore(
    {
      propertiesOwned: lead.propertiesOwned,
      hasViewedProperty: payload.hasViewedProperty,
      ownsProperty: payload.ownsProperty,
      agreedPurchasePrice: payload.agreedPurchasePrice,
    },
    lendabilityDealFor(searchType, payload, offers),
  );
  const document = newLeadDocument(lead, searchType, payload, score, new Date(), {
    searchRunId: null,
    userId: request.userId,
  });
  await deps.leads.insert(document, [leadCapturedEventFor(document, request.requestId)]);
  return { leadId: document._id, score };
}
