import { z } from 'zod';
import {
  FORBIDDEN,
  INVALID_REQUEST,
  NOT_FOUND,
  NOT_SIGNED_IN,
  defineRoute,
  errorAnswer,
  errorResponseSchema,
} from '../api/route';
import { type LoanType, loanTypeSchema } from '../common/enums';
import {
  leadBodySchema,
  leadFormSchema,
  projectNameBodySchema,
  saveSearchBodySchema,
  searchDebugInfoSchema,
} from './http';
import { PANEL_OPS_ROUTES } from './panel-ops';
import { searchPayloadSchemas } from './payloads';
import { searchRepricingSchema } from './events';
import { declinedLenderSchema, loanOfferSchema } from './result';

/** The search service's public routes: the three searches, leads and saved searches. */

export const lendabilityScoreSchema = z.object({
  score: z.number(),
  band: z.enum(['green', 'yellow', 'red']),
  factors: z.array(
    z.object({
      factor: z.enum([
        'ltv',
        'experience',
        'loanSize',
        'location',
        'viewedProperty',
        'ownsProperty',
        'agreedPrice',
      ]),
      points: z.number(),
      max: z.number(),
    }),
  ),
  /** Advice on raising the score; given only when the score is below 70. */
  tips: z.array(z.string()),
});

export const searchSummarySchema = z.object({
  panelVersion: z.string(),
  lendersSearched: z.number().int(),
  lendersWithoutProduct: z.number().int(),
  productsConsidered: z.number().int(),
  resultCount: z.number().int(),
  declinedCount: z.number().int(),
  declinedByReason: z.array(z.object({ reason: z.string(), count: z.number().int() })),
});

/** The answer of POST /api/development|bridging|commercial as the service sends it. */
export const searchRunResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    Results: z.array(loanOfferSchema),
    Declined: z.array(declinedLenderSchema),
    Summary: searchSummarySchema,
    /** Saving the search later links it to this run. */
    SearchRunId: z.string(),
    /** Present when the search came with the lead dialog's answers. */
    LendabilityScore: lendabilityScoreSchema.optional(),
  }),
  /** Bridging searches only. */
  debugInfo: searchDebugInfoSchema.optional(),
});

export type SearchSummary = z.infer<typeof searchSummarySchema>;
export type SearchRunResponse = z.infer<typeof searchRunResponseSchema>;

/** A saved search as the dashboard lists it (snake_case: the spec's field names). */
export const savedSearchViewSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  loan_type: loanTypeSchema,
  project_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  application_status: z.string(),
  result_count: z.number().int(),
  search_data: z.record(z.string(), z.unknown()),
  form_data: z.record(z.string(), z.unknown()),
  api_response: z.unknown(),
  /** The last lender panel change that moved this search's offers; null while none has. */
  repricing: searchRepricingSchema.nullable(),
});

/** POST /api/search answers its errors with `message` too: the field its caller reads. */
const saveSearchErrorSchema = errorResponseSchema.extend({ message: z.string() });

/** One loan type's search; the operation id is written out where each is declared, so grep finds it. */
function searchRoute<Id extends `${LoanType}Search`>(operationId: Id, loanType: LoanType) {
  return defineRoute({
    operationId,
    method: 'POST',
    path: `/api/${loanType}`,
    service: 'search',
    summary: `Run a ${loanType} search against every lender on the panel`,
    description:
      "With `lead` (the lead dialog's answers) the lead is recorded and the answer carries its LendabilityScore.",
    auth: 'session-optional',
    apiKeyScope: 'searches:write',
    body: z.intersection(searchPayloadSchemas[loanType], z.object({ lead: leadFormSchema.nullish() })),
    responses: {
      200: { description: 'Offers, declines and a summary', schema: searchRunResponseSchema },
      400: INVALID_REQUEST,
      403: errorAnswer('`userId` names someone other than the caller'),
    },
  });
}

export const SEARCH_ROUTES = [
  searchRoute('developmentSearch', 'development'),
  searchRoute('bridgingSearch', 'bridging'),
  searchRoute('commercialSearch', 'commercial'),
  defineRoute({
    operationId: 'captureLead',
    method: 'POST',
    path: '/api/leads',
    service: 'search',
    summary: "Record the lead dialog's answers with the search they came with, scored",
    auth: 'session-optional',
    body: leadBodySchema,
    responses: {
      201: {
        description: 'Recorded',
        schema: z.object({
          success: z.literal(true),
          lead: z.object({ id: z.string() }),
          lendabilityScore: lendabilityScoreSchema,
        }),
      },
      400: INVALID_REQUEST,
    },
  }),
  defineRoute({
    operationId: 'saveSearch',
    method: 'POST',
    path: '/api/search',
    service: 'search',
    summary: 'Save a completed search for the signed-in user',
    description:
      "Saves the server's own record of the run `apiResponse.data.SearchRunId` names: its form and offers " +
      'as the run produced them; the posted `searchData` and offers are not kept. Saving the same run ' +
      'again answers the search already saved.',
    auth: 'session',
    apiKeyScope: 'searches:write',
    body: saveSearchBodySchema,
    responses: {
      201: {
        description: 'Saved',
        schema: z.object({
          success: z.literal(true),
          search: z.object({
            id: z.string(),
            userId: z.string(),
            loanType: loanTypeSchema,
            createdAt: z.string(),
          }),
        }),
      },
      400: {
        description: 'The request is invalid, or `apiResponse` names no search run',
        schema: saveSearchErrorSchema,
      },
      401: { description: 'Not signed in', schema: saveSearchErrorSchema },
      403: {
        description: "`userId` is not the caller, or the run was another user's",
        schema: saveSearchErrorSchema,
      },
      404: { description: 'No search run of this loan type has that id', schema: saveSearchErrorSchema },
    },
  }),
  defineRoute({
    operationId: 'listUserSearches',
    method: 'GET',
    path: '/api/user-searches/:userId',
    service: 'search',
    summary: "The caller's saved searches, newest first",
    auth: 'session',
    apiKeyScope: 'searches:read',
    params: z.object({ userId: z.string() }),
    responses: {
      200: { description: 'The saved searches', schema: z.array(savedSearchViewSchema) },
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
    },
  }),
  defineRoute({
    operationId: 'getSearchResult',
    method: 'GET',
    path: '/api/search-result/:id',
    service: 'search',
    summary: 'One saved search of the caller with its results',
    auth: 'session',
    apiKeyScope: 'searches:read',
    params: z.object({ id: z.string() }),
    responses: {
      200: {
        description: 'The saved search',
        schema: savedSearchViewSchema.extend({ success: z.literal(true), results: z.array(z.unknown()) }),
      },
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  }),
  defineRoute({
    operationId: 'renameSearch',
    method: 'PUT',
    path: '/api/search/project-name',
    service: 'search',
    summary: "Rename one of the caller's saved searches",
    auth: 'session',
    apiKeyScope: 'searches:write',
    body: projectNameBodySchema,
    responses: {
      200: {
        description: 'Renamed',
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          search: z.object({
            id: z.string(),
            loan_type: loanTypeSchema,
            project_name: z.string().nullable(),
          }),
        }),
      },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  }),
  // The lender panel as operations run it (search owns the panel).
  ...PANEL_OPS_ROUTES,
] as const;
