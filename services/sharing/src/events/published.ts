import {
  type DealSharedEvent,
  type DealViewedEvent,
  type ReferralCreatedEvent,
  SHARING_EVENT_TYPES,
  type ShareCreatedEvent,
  type ShareRevokedEvent,
  type ShareViewedEvent,
  createEnvelope,
  dealSharedEventSchema,
  dealViewedEventSchema,
  referralCreatedEventSchema,
  shareCreatedEventSchema,
  shareRevokedEventSchema,
  shareViewedEventSchema,
} from '@lsp/contracts';

export const SERVICE_NAME = 'sharing';

export const shareCreatedEvent = (data: ShareCreatedEvent) =>
  createEnvelope(SERVICE_NAME, {
    type: SHARING_EVENT_TYPES.shareCreated,
    subject: data.dipId,
    data: shareCreatedEventSchema.parse(data),
  });

export const shareViewedEvent = (data: ShareViewedEvent) =>
  createEnvelope(SERVICE_NAME, {
    type: SHARING_EVENT_TYPES.shareViewed,
    subject: data.dipId,
    data: shareViewedEventSchema.parse(data),
  });

export const shareRevokedEvent = (data: ShareRevokedEvent) =>
  createEnvelope(SERVICE_NAME, {
    type: SHARING_EVENT_TYPES.shareRevoked,
    subject: data.dipId,
    data: shareRevokedEventSchema.parse(data),
  });

export const dealSharedEvent = (data: DealSharedEvent) =>
  createEnvelope(SERVICE_NAME, {
    type: SHARING_EVENT_TYPES.dealShared,
    subject: data.dealId,
    data: dealSharedEventSchema.parse(data),
  });

export const dealViewedEvent = (data: DealViewedEvent) =>
  createEnvelope(SERVICE_NAME, {
    type: SHARING_EVENT_TYPES.dealViewed,
    subject: data.dealId,
    data: dealViewedEventSchema.parse(data),
  });

export const referralCreatedEvent = (data: ReferralCreatedEvent) =>
  createEnvelope(SERVICE_NAME, {
    type: SHARING_EVENT_TYPES.referralCreated,
    subject: data.referralId,
    data: referralCreatedEventSchema.parse(data),
  });
