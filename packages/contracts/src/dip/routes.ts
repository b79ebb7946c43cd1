import { z } from 'zod';
import {
  FORBIDDEN,
  INVALID_REQUEST,
  NOT_SIGNED_IN,
  OWNER_UNAVAILABLE,
  defineRoute,
  errorAnswer,
  errorResponseSchema,
} from '../api/route';
import {
  applicationListItemSchema,
  createDipBodySchema,
  createDipParamsSchema,
  createDipResponseSchema,
  dipApplicationBodySchema,
  dipExpiryBodySchema,
  loanApplicationBodySchema,
} from './http';
import { dipListItemSchema, dipOwnerViewSchema, onlineDipViewSchema } from './views';

/** The dip service's public routes: online DIPs, their PDFs, DIP and loan applications. */

const dipIdParams = z.object({ dipId: z.string() });
const DIP_NOT_FOUND = errorAnswer('No such DIP');
const DIP_EXPIRED = errorAnswer('The DIP has expired');
const CHANGED_CONCURRENTLY = errorAnswer('The DIP changed at the same time; try again');
/** The refusals of a change the owner makes to one of its live DIPs. */
const OWNER_CHANGE_REFUSALS = {
  401: NOT_SIGNED_IN,
  403: FORBIDDEN,
  404: DIP_NOT_FOUND,
  409: CHANGED_CONCURRENTLY,
  410: DIP_EXPIRED,
} as const;
/** The answers to the caller submitting an application, DIP or loan, in its own name. */
const APPLICATION_SUBMISSION_RESPONSES = {
  201: {
    description: 'Submitted',
    schema: z.object({ success: z.literal(true), id: z.string(), status: z.string() }),
  },
  400: INVALID_REQUEST,
  401: NOT_SIGNED_IN,
  403: errorAnswer('`userId` is not the caller, or `searchId` names a search of someone else'),
  404: errorAnswer('`searchId` names no saved search'),
  503: OWNER_UNAVAILABLE,
} as const;

export const DIP_ROUTES = [
  defineRoute({
    operationId: 'createDip',
    method: 'POST',
    path: '/api/online-dip/create/:searchId/:loanIndex',
    service: 'dip',
    summary: 'Create a Decision in Principle from one offer of a saved search',
    auth: 'session',
    apiKeyScope: 'dips:write',
    verifiedEmail: true,
    params: createDipParamsSchema,
    body: createDipBodySchema,
    responses: {
      201: { description: 'Created', schema: createDipResponseSchema },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: errorAnswer('The search is not the caller’s'),
      404: errorAnswer('No such search, or no such offer in it'),
      503: OWNER_UNAVAILABLE,
    },
  }),
  defineRoute({
    operationId: 'listUserDips',
    method: 'GET',
    path: '/api/online-dip/user/:userId',
    service: 'dip',
    summary: "The caller's DIPs for the dashboard",
    auth: 'session',
    apiKeyScope: 'dips:read',
    verifiedEmail: true,
    params: z.object({ userId: z.string() }),
    responses: {
      200: {
        description: 'The DIPs',
        schema: z.object({ success: z.literal(true), dips: z.array(dipListItemSchema) }),
      },
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
    },
  }),
  defineRoute({
    operationId: 'getDip',
    method: 'GET',
    path: '/api/online-dip/:reference',
    service: 'dip',
    summary: "A DIP: by id, the owner's view; by share slug, the online DIP page",
    auth: 'session',
    apiKeyScope: 'dips:read',
    verifiedEmail: true,
    params: z.object({ reference: z.string() }),
    responses: {
      200: {
        description: "The owner's view (by id) or the online DIP page (by share slug)",
        schema: z.union([
          z.object({
            success: z.literal(true),
            dip: dipOwnerViewSchema,
            shareInfo: z.object({ shareId: z.null() }),
          }),
          onlineDipViewSchema.extend({ success: z.literal(true) }),
        ]),
      },
      401: NOT_SIGNED_IN,
      403: errorAnswer('Neither the owner nor someone it was shared with'),
      404: DIP_NOT_FOUND,
      410: DIP_EXPIRED,
    },
  }),
  defineRoute({
    operationId: 'regenerateDipLink',
    method: 'POST',
    path: '/api/online-dip/:dipId/regenerate-link',
    service: 'dip',
    summary: "Replace the DIP's share link (the old one stops working)",
    auth: 'session',
    apiKeyScope: 'dips:write',
    verifiedEmail: true,
    params: dipIdParams,
    responses: {
      200: {
        description: 'The new link',
        schema: z.object({
          ok: z.literal(true),
          success: z.literal(true),
          shareSlug: z.string(),
          shareUrl: z.string(),
          url: z.string(),
        }),
      },
      ...OWNER_CHANGE_REFUSALS,
    },
  }),
  defineRoute({
    operationId: 'setDipExpiry',
    method: 'POST',
    path: '/api/online-dip/:dipId/expiry',
    service: 'dip',
    summary: 'Move the DIP’s expiry (by default 30 days from now)',
    auth: 'session',
    apiKeyScope: 'dips:write',
    verifiedEmail: true,
    params: dipIdParams,
    body: dipExpiryBodySchema,
    responses: {
      200: {
        description: 'The new expiry',
        schema: z.object({ ok: z.literal(true), success: z.literal(true), expiresAt: z.string() }),
      },
      400: INVALID_REQUEST,
      ...OWNER_CHANGE_REFUSALS,
    },
  }),
  defineRoute({
    operationId: 'revokeDip',
    method: 'POST',
    path: '/api/online-dip/:dipId/revoke',
    service: 'dip',
    summary: "Revoke the DIP's share link",
    auth: 'session',
    apiKeyScope: 'dips:write',
    verifiedEmail: true,
    params: dipIdParams,
    responses: {
      200: { description: 'Revoked', schema: z.object({ ok: z.literal(true), success: z.literal(true) }) },
      ...OWNER_CHANGE_REFUSALS,
    },
  }),
  defineRoute({
    operationId: 'downloadDipPdf',
    method: 'GET',
    path: '/api/online-dip/pdf/:reference',
    service: 'dip',
    summary: 'The DIP as a PDF, by DIP id or quote code (the owner, or a recipient allowed to download)',
    auth: 'session',
    apiKeyScope: 'dips:read',
    verifiedEmail: true,
    params: z.object({ reference: z.string() }),
    responses: {
      200: { description: 'The PDF (an attachment)', contentType: 'application/pdf' },
      400: errorAnswer('Not a DIP id or quote code'),
      401: NOT_SIGNED_IN,
      403: errorAnswer('Not allowed to download this DIP'),
      404: DIP_NOT_FOUND,
      410: DIP_EXPIRED,
      503: {
        description: 'The PDF is not ready yet, or could not be made: try again',
        schema: errorResponseSchema.extend({ title: z.string() }),
      },
    },
  }),
  defineRoute({
    operationId: 'submitDipApplication',
    method: 'POST',
    path: '/api/dip-applications',
    service: 'dip',
    summary: 'Submit the DIP application wizard',
    auth: 'session',
    apiKeyScope: 'dips:write',
    verifiedEmail: true,
    body: dipApplicationBodySchema,
    responses: APPLICATION_SUBMISSION_RESPONSES,
  }),
  defineRoute({
    operationId: 'submitLoanApplication',
    method: 'POST',
    path: '/api/applications',
    service: 'dip',
    summary: "Submit a loan application ('Continue application')",
    auth: 'session',
    apiKeyScope: 'dips:write',
    verifiedEmail: true,
    body: loanApplicationBodySchema,
    responses: APPLICATION_SUBMISSION_RESPONSES,
  }),
  defineRoute({
    operationId: 'listUserApplications',
    method: 'GET',
    path: '/api/applications/:userId',
    service: 'dip',
    summary: "The caller's DIP and loan applications, newest first",
    auth: 'session',
    apiKeyScope: 'dips:read',
    verifiedEmail: true,
    params: z.object({ userId: z.string() }),
    responses: {
      200: {
        description: 'The applications',
        schema: z.object({ success: z.literal(true), applications: z.array(applicationListItemSchema) }),
      },
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
    },
  }),
] as const;
