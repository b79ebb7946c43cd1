import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  type EventEnvelope,
  type LeadForm,
  type LoanOffer,
  type LoanType,
  type SearchPayloadByType,
  type SearchRunResponse,
  type SearchSummary,
  SEARCH_EVENTS,
} from '@lsp/contracts';
import { type CallerIdentity, forbidden } from '@lsp/service-kit';
import {
  type LendabilityScore,
  type PanelSearchResult,
  bestRateOf,
  computeLendabilityScore,
  developmentCosts,
  lendabilityDealFor,
  searchPanel,
} from '../engine';
import type { LeadDocument } from '../data/models/leads';
import type { SearchRunDocument } from '../data/models/search-runs';
import type { PanelStore } from '../data/panel-store';
import type { SearchRunRepository } from '../data/search-runs';
import { bridgingDebugInfo, countDeclinedByReason, searchMessage } from '../domain/search-response';
import { leadCapturedEventFor, newLeadDocument } from './leads';
import { definedFields } from './stored-fields';

export interface SearchRunnerDeps {
  panels: PanelStore;
  runs: SearchRunRepository;
}

export interface SearchRunRequest<T extends LoanType> {
  /** The body as the route's declared schema left it: the search payload, and the lead it came with. */
  body: SearchPayloadByType[T] & { lead?: LeadForm | null };
  caller: CallerIdentity | null;
  requestId: string;
}

/**
 * The user a search is recorded for. An anonymous caller's claimed id is ignored (the spec attaches the
 * id only when the current-user call succeeded, and a session can lapse in between); a signed-in caller
 * naming someone else is refused.
 */
export function searchUserId(claimed: string | undefined, caller: CallerIdentity | null): string | null {
  if (!caller) return null;
  if (claimed !== undefined && claimed !== caller.userId)
    throw forbidden('You can only run searches as yourself');
  return caller.userId;
}

/** Payload fields as the loan type's `*_searches` model stores them (derived figures filled in). */
function storedPayloadFields<T extends LoanType>(
  loanType: T,
  payload: SearchPayloadByType[T],
): Record<string, unknown> {
  const { userId: _userId, ...rest } = payload as SearchPayloadByType[T] & { userId?: string };
  const fields = definedFields(rest);
  if (loanType !== 'development') return fields;
  const development = payload as SearchPayloadByType['development'];
  const costs = developmentCosts(development);
  return {
    ...fields,
    landCosts: development.purchasePrice + (development.purchaseCosts ?? 0),
    totalBuildCost: development.totalBuildCost ?? costs.totalBuildCost,
    profCostsAndFees: development.profCostsAndFees ?? costs.professionalFees,
  };
}

/**
 * The offer as a run record keeps it: who offered what, at which price. The full offer (with its
 * reasons) is reproducible from the stored payload and panel version, and writing ~30 KB per run would
 * cost more than the search itself.
 */
function storedOffer(offer: LoanOffer) {
  return {
    LenderName: offer.LenderName,
    LenderId: offer.LenderId,
    ProductId: offer.ProductId,
    GrossLoan: offer.GrossLoan,
    NetLoan: offer.NetLoan,
    InterestRate: offer.InterestRate,
    TrueMonthlyCost: offer.TrueMonthlyCost,
    LoanToValue: offer.LoanToValue,
    DepositRequired: offer.DepositRequired,
    MonthlyPayment: offer.MonthlyPayment,
    TotalLenderCosts: offer.TotalLenderCosts,
  };
}

/** The answer of a search route for one engine result: the offers, the declines, the run's summary. */
export function searchAnswer<T extends LoanType>(
  loanType: T,
  payload: SearchPayloadByType[T],
  result: PanelSearchResult,
  searchRunId: string,
  score?: LendabilityScore,
): SearchRunResponse {
  const summary: SearchSummary = {
    panelVersion: result.panelVersion,
    lendersSearched: result.lendersSearched,
    lendersWithoutProduct: result.lendersWithoutProduct,
    productsConsidered: result.productsConsidered,
    resultCount: result.offers.length,
    declinedCount: result.declined.length,
    declinedByReason: countDeclinedByReason(result.declined),
  };
  return {
    success: true,
    message: searchMessage(loanType, result.offers.length),
    data: {
      Results: result.offers,
      Declined: result.declined,
      Summary: summary,
      SearchRunId: searchRunId,
      ...(score ? { LendabilityScore: score } : {}),
    },
    ...(loanType === 'bridging'
      ? { debugInfo: bridgingDebugInfo(payload as SearchPayloadByType['bridging']) }
      : {}),
  };
}

/**
 * One search run: validate, size the deal with every lender on the active panel, score the lead when
 * one came with it, and record the run (plus the lead) with its events in one transaction.
 */
export async function runSearch<T extends LoanType>(
  deps: SearchRunnerDeps,
  loanType: T,
  request: SearchRunRequest<T>,
): Promise<SearchRunResponse> {
  const started = performance.now();
  const { lead: leadInput, ...fields } = request.body;
  const payload = fields as SearchPayloadByType[T];
  const lead: LeadForm | null = leadInput ?? null;
  const userId = searchUserId(payload.userId, request.caller);

  const panel = deps.panels.current();
  const result = searchPanel(loanType, payload, panel);
  const score = lead
    ? computeLendabilityScore(
        {
          propertiesOwned: lead.propertiesOwned,
          hasViewedProperty: payload.hasViewedProperty,
          ownsProperty: payload.ownsProperty,
          agreedPurchasePrice: payload.agreedPurchasePrice,
        },
        lendabilityDealFor(loanType, payload, result.offers),
      )
    : undefined;

  const searchRunId = randomUUID();
  const response = searchAnswer(loanType, payload, result, searchRunId, score);
  const summary = response.data.Summary;

  const bestRate = bestRateOf(result.offers);
  const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
  const now = new Date();
  const run: SearchRunDocument = {
    ...storedPayloadFields(loanType, payload),
    _id: searchRunId,
    userId,
    requestRef: request.requestId,
    panelVersion: result.panelVersion,
    projectName: payload.projectName,
    applicationStatus: 'not_submitted',
    apiResponse: { success: true, data: { Results: result.offers.map(storedOffer), Summary: summary } },
    resultCount: result.offers.length,
    declinedCount: result.declined.length,
    bestRate,
    durationMs,
    createdAt: now,
  };
  const events: EventEnvelope[] = [
    SEARCH_EVENTS.completed.envelope(
      {
        searchRunId,
        loanType,
        resultCount: result.offers.length,
        declinedCount: result.declined.length,
        bestRate,
        durationMs,
        panelVersion: result.panelVersion,
        ...(userId ? { userId } : {}),
      },
      { correlationId: request.requestId },
    ),
  ];
  let leadDocument: LeadDocument | undefined;
  if (lead && score) {
    leadDocument = newLeadDocument(lead, loanType, payload, score, now, { searchRunId, userId });
    events.push(leadCapturedEventFor(leadDocument, request.requestId));
  }
  await deps.runs.record(loanType, run, events, leadDocument);
  return response;
}
