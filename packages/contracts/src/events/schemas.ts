import type { z } from 'zod';
import {
  DIP_EVENT_TYPES,
  applicationSubmittedEventSchema,
  dipCreatedEventSchema,
  dipExpiryChangedEventSchema,
  dipLinkRegeneratedEventSchema,
  dipPdfRenderedEventSchema,
  dipProductChangedEventSchema,
  dipRevokedEventSchema,
} from '../dip/events';
import {
  IDENTITY_EVENT_TYPES,
  passwordChangedEventSchema,
  passwordResetRequestedEventSchema,
  userRegisteredEventSchema,
  userVerifiedEventSchema,
  verificationRequestedEventSchema,
} from '../identity/events';
import {
  SEARCH_EVENT_TYPES,
  leadCapturedEventSchema,
  panelActivatedEventSchema,
  searchCompletedEventSchema,
  searchRepricedEventSchema,
  searchSavedEventSchema,
} from '../search/events';
import {
  SHARING_EVENT_TYPES,
  dealSharedEventSchema,
  dealViewedEventSchema,
  referralCreatedEventSchema,
  shareCreatedEventSchema,
  shareRevokedEventSchema,
  shareViewedEventSchema,
} from '../sharing/events';
import type { EventType } from './envelope';

/** The domain whose service publishes an event: the folder of packages/contracts that declares it. */
export type EventDomain = 'identity' | 'search' | 'dip' | 'sharing';

export const EVENT_TYPES_OF_DOMAIN: Readonly<Record<EventDomain, Readonly<Record<string, string>>>> = {
  identity: IDENTITY_EVENT_TYPES,
  search: SEARCH_EVENT_TYPES,
  dip: DIP_EVENT_TYPES,
  sharing: SHARING_EVENT_TYPES,
};

/**
 * The payload schema of every version of every event type. A change readers of the released schema
 * could not read (see docs/decisions) is a new version beside the old one, published with its own
 * `dataschema` (`/schemas/dip.created/v2`) until every reader has moved; the old one stays here while
 * any event of it may still be on a topic.
 */
export const EVENT_SCHEMAS: Readonly<Record<EventType, Readonly<Record<number, z.ZodType>>>> = {
  [IDENTITY_EVENT_TYPES.registered]: { 1: userRegisteredEventSchema },
  [IDENTITY_EVENT_TYPES.verificationRequested]: { 1: verificationRequestedEventSchema },
  [IDENTITY_EVENT_TYPES.verified]: { 1: userVerifiedEventSchema },
  [IDENTITY_EVENT_TYPES.passwordResetRequested]: { 1: passwordResetRequestedEventSchema },
  [IDENTITY_EVENT_TYPES.passwordChanged]: { 1: passwordChangedEventSchema },
  [SEARCH_EVENT_TYPES.completed]: { 1: searchCompletedEventSchema },
  [SEARCH_EVENT_TYPES.saved]: { 1: searchSavedEventSchema },
  [SEARCH_EVENT_TYPES.leadCaptured]: { 1: leadCapturedEventSchema },
  [SEARCH_EVENT_TYPES.panelActivated]: { 1: panelActivatedEventSchema },
  [SEARCH_EVENT_TYPES.repriced]: { 1: searchRepricedEventSchema },
  [DIP_EVENT_TYPES.created]: { 1: dipCreatedEventSchema },
  [DIP_EVENT_TYPES.linkRegenerated]: { 1: dipLinkRegeneratedEventSchema },
  [DIP_EVENT_TYPES.expiryChanged]: { 1: dipExpiryChangedEventSchema },
  [DIP_EVENT_TYPES.revoked]: { 1: dipRevokedEventSchema },
  [DIP_EVENT_TYPES.pdfRendered]: { 1: dipPdfRenderedEventSchema },
  [DIP_EVENT_TYPES.applicationSubmitted]: { 1: applicationSubmittedEventSchema },
  [DIP_EVENT_TYPES.productChanged]: { 1: dipProductChangedEventSchema },
  [SHARING_EVENT_TYPES.shareCreated]: { 1: shareCreatedEventSchema },
  [SHARING_EVENT_TYPES.shareViewed]: { 1: shareViewedEventSchema },
  [SHARING_EVENT_TYPES.shareRevoked]: { 1: shareRevokedEventSchema },
  [SHARING_EVENT_TYPES.dealShared]: { 1: dealSharedEventSchema },
  [SHARING_EVENT_TYPES.dealViewed]: { 1: dealViewedEventSchema },
  [SHARING_EVENT_TYPES.referralCreated]: { 1: referralCreatedEventSchema },
};

/** The `dataschema` an event of this type and version travels with. */
export const dataschemaOf = (type: string, version: number) => `/schemas/${type}/v${version}`;

/** The version a `dataschema` names (`/schemas/dip.created/v2` → 2), or null when it names none. */
export function dataschemaVersion(dataschema: string): number | null {
  const match = /\/v(\d+)$/.exec(dataschema);
  return match ? Number(match[1]) : null;
}
