import type { z } from 'zod';
import { DIP_EVENTS, DIP_EVENT_TYPES } from '../dip/events';
import { IDENTITY_EVENTS, IDENTITY_EVENT_TYPES } from '../identity/events';
import { SEARCH_EVENTS, SEARCH_EVENT_TYPES } from '../search/events';
import { SHARING_EVENTS, SHARING_EVENT_TYPES } from '../sharing/events';

export { dataschemaOf, dataschemaVersion } from './dataschema';

/**
 * The event catalogue (topic name = event type): every type a domain declares in its own
 * `events.ts`, so a new event is in the catalogue the moment it is declared. The operations console
 * watches these topics and their dead letters; a type missing here never shows its dead letters.
 */
export const EVENT_TYPES = [
  ...Object.values(IDENTITY_EVENT_TYPES),
  ...Object.values(SEARCH_EVENT_TYPES),
  ...Object.values(DIP_EVENT_TYPES),
  ...Object.values(SHARING_EVENT_TYPES),
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const deadLetterTopic = (type: string) => `${type}.dlq`;

/** The domain whose service publishes an event: the folder of packages/contracts that declares it. */
export type EventDomain = 'identity' | 'search' | 'dip' | 'sharing';

export const EVENT_TYPES_OF_DOMAIN: Readonly<Record<EventDomain, Readonly<Record<string, string>>>> = {
  identity: IDENTITY_EVENT_TYPES,
  search: SEARCH_EVENT_TYPES,
  dip: DIP_EVENT_TYPES,
  sharing: SHARING_EVENT_TYPES,
};

/** Every event definition, one per type, in the version producers write today. */
export const EVENT_DEFINITIONS = [
  ...Object.values(IDENTITY_EVENTS),
  ...Object.values(SEARCH_EVENTS),
  ...Object.values(DIP_EVENTS),
  ...Object.values(SHARING_EVENTS),
];

/**
 * Payload schemas of versions producers no longer write but a topic may still hold. A change readers
 * of the released schema could not read (see docs/decisions) is a new version: its definition moves to
 * the new version and the old schema comes here, published with its own `dataschema`
 * (`/schemas/dip.created/v2`) until every reader has moved, and kept while any event of it may remain.
 */
const EARLIER_VERSIONS: Readonly<Partial<Record<EventType, Readonly<Record<number, z.ZodType>>>>> = {};

/** The payload schema of every version of every event type. */
export const EVENT_SCHEMAS = Object.fromEntries(
  EVENT_DEFINITIONS.map((definition) => [
    definition.type,
    { ...EARLIER_VERSIONS[definition.type as EventType], [definition.version]: definition.schema },
  ]),
) as Readonly<Record<EventType, Readonly<Record<number, z.ZodType>>>>;
