import { z } from 'zod';
import { PUBLIC_API_ROUTES } from '../api/index';
import type { DomainReleaseInfo } from '../api/domain-releases';
import type { RouteContract, RouteOwner } from '../api/route';
import { EVENT_SCHEMAS, EVENT_TYPES_OF_DOMAIN, type EventDomain } from '../events/schemas';
import { type ExampleShape, exampleOf } from './examples';
import { type JsonSchema, jsonSchemaOf } from './json-schema';

/**
 * The contracts of one domain as JSON: every event it publishes (the payload's JSON Schema per event
 * type and version, with an example of each shape) and every route it answers (params, query and body
 * as the caller sends them, each answer as the service sends it). A release is this, written to
 * packages/contracts/released/<domain>.json with the commit it was taken from.
 */
export type ContractDomain = RouteOwner;
export type { DomainReleaseInfo };

/** Every domain a team releases on its own: one per service answering public routes. */
export const CONTRACT_DOMAINS: readonly ContractDomain[] = [
  'identity',
  'search',
  'dip',
  'sharing',
  'notifications',
  'gateway',
];

export interface EventSnapshot {
  /** The payload (`data`) as its readers accept it. */
  schema: JsonSchema;
  /** Payloads a producer of this version could write, valid against `schema`. */
  examples: Record<ExampleShape, unknown>;
}

export interface AnswerSnapshot {
  schema?: JsonSchema;
  contentType?: string;
}

export interface RouteSnapshot {
  operationId: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  responses: Record<string, AnswerSnapshot>;
}

export interface DomainContracts {
  /** By event type, then version (`{ 'dip.created': { '1': … } }`). */
  events: Record<string, Record<string, EventSnapshot>>;
  /** By `METHOD /path` as fastify declares it. */
  routes: Record<string, RouteSnapshot>;
}

export interface DomainRelease extends DomainContracts {
  domain: ContractDomain;
  /** Grows by one with each release of the domain whose contracts changed. */
  release: number;
  /** The commit the release was taken from (HEAD when it was written). */
  commit: string;
  releasedAt: string;
  /** True when the contract sources differed from that commit (the release holds the working tree's). */
  uncommittedChanges: boolean;
  /** The decision record that accepted a breaking change in this release, when one was. */
  breakingChangeRecord?: string;
}

/** Where the contracts come from: the catalogue and the routes, replaceable in tests. */
export interface ContractSources {
  eventSchemas: Readonly<Record<string, Readonly<Record<number, z.ZodType>>>>;
  routes: readonly RouteContract[];
}

export const TREE_SOURCES: ContractSources = { eventSchemas: EVENT_SCHEMAS, routes: PUBLIC_API_ROUTES };

/** An example that today's zod schema refuses means the generator cannot write this schema's values. */
function checkedExample(type: string, schema: z.ZodType, json: JsonSchema, shape: ExampleShape): unknown {
  const value = exampleOf(json, shape);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${type}: the ${shape} example the generator wrote is refused at ${issue?.path.join('.') || '(payload)'}: ${issue?.message}`,
    );
  }
  return value;
}

function routeSnapshot(route: RouteContract): RouteSnapshot {
  const responses: Record<string, AnswerSnapshot> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    responses[status] = answer.schema
      ? { schema: jsonSchemaOf(answer.schema, 'output') }
      : answer.contentType
        ? { contentType: answer.contentType }
        : {};
  }
  return {
    operationId: route.operationId,
    ...(route.params ? { params: jsonSchemaOf(route.params, 'input') } : {}),
    ...(route.query ? { query: jsonSchemaOf(route.query, 'input') } : {}),
    ...(route.body ? { body: jsonSchemaOf(route.body, 'input') } : {}),
    responses,
  };
}

export const routeKey = (route: Pick<RouteContract, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** The contracts of one domain in the given sources (by default this tree's). */
export function domainContracts(
  domain: ContractDomain,
  sources: ContractSources = TREE_SOURCES,
): DomainContracts {
  const events: DomainContracts['events'] = {};
  const eventTypes = domain in EVENT_TYPES_OF_DOMAIN ? EVENT_TYPES_OF_DOMAIN[domain as EventDomain] : {};
  for (const type of Object.values(eventTypes).sort()) {
    const versions = sources.eventSchemas[type];
    if (!versions) throw new Error(`${type} has no payload schema in the event catalogue`);
    events[type] = {};
    for (const [version, schema] of Object.entries(versions)) {
      const json = jsonSchemaOf(schema, 'input');
      events[type][version] = {
        schema: json,
        examples: {
          full: checkedExample(`${type} v${version}`, schema, json, 'full'),
          minimal: checkedExample(`${type} v${version}`, schema, json, 'minimal'),
        },
      };
    }
  }
  const routes: DomainContracts['routes'] = {};
  for (const route of sources.routes.filter((r) => r.service === domain)) {
    routes[routeKey(route)] = routeSnapshot(route);
  }
  return { events, routes };
}

/** The contracts without their examples, as JSON: two releases with the same text promise the same. */
export function contractText(contracts: DomainContracts): string {
  const events = Object.fromEntries(
    Object.entries(contracts.events).map(([type, versions]) => [
      type,
      Object.fromEntries(Object.entries(versions).map(([v, e]) => [v, e.schema])),
    ]),
  );
  return JSON.stringify({ events, routes: contracts.routes });
}
