import {
  type LeadCapturedEvent,
  type PanelActivatedEvent,
  type SearchRepricedEvent,
  SEARCH_EVENT_TYPES,
  type SearchCompletedEvent,
  type SearchSavedEvent,
  createEnvelope,
  leadCapturedEventSchema,
  panelActivatedEventSchema,
  searchRepricedEventSchema,
  searchCompletedEventSchema,
  searchSavedEventSchema,
} from '@lsp/contracts';

export const SERVICE_NAME = 'search';

/** Event data is parsed with its contract before it is written, so consumers never see a bad shape. */
export function searchCompletedEvent(data: SearchCompletedEvent, correlationId?: string) {
  return createEnvelope(SERVICE_NAME, {
    type: SEARCH_EVENT_TYPES.completed,
    subject: data.searchRunId,
    data: searchCompletedEventSchema.parse(data),
    correlationId,
  });
}

export function searchSavedEvent(data: SearchSavedEvent, correlationId?: string) {
  return createEnvelope(SERVICE_NAME, {
    type: SEARCH_EVENT_TYPES.saved,
    subject: data.searchId,
    data: searchSavedEventSchema.parse(data),
    correlationId,
  });
}

export function leadCapturedEvent(data: LeadCapturedEvent, correlationId?: string) {
  return createEnvelope(SERVICE_NAME, {
    type: SEARCH_EVENT_TYPES.leadCaptured,
    subject: data.leadId,
    data: leadCapturedEventSchema.parse(data),
    correlationId,
  });
}

export function panelActivatedEvent(data: PanelActivatedEvent) {
  return createEnvelope(SERVICE_NAME, {
    type: SEARCH_EVENT_TYPES.panelActivated,
    subject: data.version,
    data: panelActivatedEventSchema.parse(data),
  });
}

export function searchRepricedEvent(data: SearchRepricedEvent) {
  return createEnvelope(SERVICE_NAME, {
    type: SEARCH_EVENT_TYPES.repriced,
    subject: data.searchId,
    data: searchRepricedEventSchema.parse(data),
  });
}
