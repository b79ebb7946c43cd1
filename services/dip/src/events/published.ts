import {
  type ApplicationSubmittedEvent,
  DIP_EVENT_TYPES,
  type DipCreatedEvent,
  type DipExpiryChangedEvent,
  type DipLinkRegeneratedEvent,
  type DipPdfRenderedEvent,
  type DipProductChangedEvent,
  type DipRevokedEvent,
  applicationSubmittedEventSchema,
  createEnvelope,
  dipCreatedEventSchema,
  dipExpiryChangedEventSchema,
  dipLinkRegeneratedEventSchema,
  dipPdfRenderedEventSchema,
  dipProductChangedEventSchema,
  dipRevokedEventSchema,
} from '@lsp/contracts';

export const SERVICE_NAME = 'dip';

/** Each event's data is parsed with its contract before it is written: consumers never see a bad shape. */
const dipEvent =
  <T>(type: string, schema: { parse(data: unknown): T }) =>
  (subject: string, data: T, correlationId?: string) =>
    createEnvelope(SERVICE_NAME, { type, subject, data: schema.parse(data), correlationId });

export const dipCreatedEvent = dipEvent<DipCreatedEvent>(DIP_EVENT_TYPES.created, dipCreatedEventSchema);
export const dipLinkRegeneratedEvent = dipEvent<DipLinkRegeneratedEvent>(
  DIP_EVENT_TYPES.linkRegenerated,
  dipLinkRegeneratedEventSchema,
);
export const dipExpiryChangedEvent = dipEvent<DipExpiryChangedEvent>(
  DIP_EVENT_TYPES.expiryChanged,
  dipExpiryChangedEventSchema,
);
export const dipRevokedEvent = dipEvent<DipRevokedEvent>(DIP_EVENT_TYPES.revoked, dipRevokedEventSchema);
export const dipPdfRenderedEvent = dipEvent<DipPdfRenderedEvent>(
  DIP_EVENT_TYPES.pdfRendered,
  dipPdfRenderedEventSchema,
);
export const applicationSubmittedEvent = dipEvent<ApplicationSubmittedEvent>(
  DIP_EVENT_TYPES.applicationSubmitted,
  applicationSubmittedEventSchema,
);

/** Its subject is the owner's user id: one per owner per panel change. */
export const dipProductChangedEvent = dipEvent<DipProductChangedEvent>(
  DIP_EVENT_TYPES.productChanged,
  dipProductChangedEventSchema,
);
