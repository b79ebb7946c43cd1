import { z } from 'zod';
import { ALERT_ROUTES } from '../alerts/routes';
import { DIP_ROUTES } from '../dip/routes';
import { IDENTITY_ROUTES } from '../identity/routes';
import { OPS_ROUTES } from '../ops/routes';
import { SEARCH_ROUTES } from '../search/routes';
import { SHARING_ROUTES } from '../sharing/routes';
import { WEBHOOK_ROUTES } from '../webhooks/routes';
import { type HttpMethod, type RouteContract, defineRoute, errorAnswer } from './route';

export * from './route';
export * from './openapi';
export * from './domain-releases';

/** The gateway's per-address limit, which its own routes answer too (with `Retry-After`). */
const ADDRESS_RATE_LIMITED = errorAnswer('Too many requests from this address: wait `Retry-After` seconds');

/** The gateway's own public routes: this API's documentation. */
export const DOCS_ROUTES = [
  defineRoute({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/api/docs/openapi.json',
    service: 'gateway',
    summary: 'This document: the public API as OpenAPI 3.1',
    auth: 'public',
    responses: {
      200: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) },
      429: ADDRESS_RATE_LIMITED,
    },
  }),
  defineRoute({
    operationId: 'getApiDocsPage',
    method: 'GET',
    path: '/api/docs',
    service: 'gateway',
    summary: 'The public API as a readable page',
    auth: 'public',
    responses: { 200: { description: 'The page', contentType: 'text/html' }, 429: ADDRESS_RATE_LIMITED },
  }),
] as const;

/**
 * Every public /api route with its literal types (operation ids, paths, schemas): what the browser's
 * typed client reads its inputs and answers from, without importing any schema at run time.
 */
export type PublicApiRoute =
  | (typeof IDENTITY_ROUTES)[number]
  | (typeof SEARCH_ROUTES)[number]
  | (typeof DIP_ROUTES)[number]
  | (typeof SHARING_ROUTES)[number]
  | (typeof OPS_ROUTES)[number]
  | (typeof ALERT_ROUTES)[number]
  | (typeof WEBHOOK_ROUTES)[number]
  | (typeof DOCS_ROUTES)[number];

export type PublicOperationId = PublicApiRoute['operationId'];

type Declared<R, Id> = R extends { operationId: infer O } ? (Id extends O ? R : never) : never;
/** The declaration an operation id names (for `bridgingSearch`, the one declared for every loan type). */
export type PublicRouteOf<Id extends string> = Declared<PublicApiRoute, Id>;

/** Every public /api route of the platform, each declared once. */
export const PUBLIC_API_ROUTES: readonly RouteContract[] = [
  ...IDENTITY_ROUTES,
  ...SEARCH_ROUTES,
  ...DIP_ROUTES,
  ...SHARING_ROUTES,
  ...OPS_ROUTES,
  ...ALERT_ROUTES,
  ...WEBHOOK_ROUTES,
  ...DOCS_ROUTES,
];

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const routesByKey = new Map(PUBLIC_API_ROUTES.map((route) => [routeKey(route.method, route.path), route]));

/** The declared route for a method and a fastify route path (`/api/shared/:shareId/mark-viewed`). */
export function findRouteContract(method: HttpMethod | string, path: string): RouteContract | undefined {
  return routesByKey.get(routeKey(method, path));
}
