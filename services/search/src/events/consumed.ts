import { DIP_EVENT_TYPES, applicationSubmittedEventSchema } from '@lsp/contracts';
import type { EventBus, ProcessedEvents } from '@lsp/service-kit';
import type { SavedSearchRepository } from '../data/saved-searches';

export const CONSUMER = 'search';

/**
 * What search learns from other services: an application made from a saved search marks that search
 * 'Application Submitted'. Each event is handled once (the marker and the change commit together).
 */
export function subscribeToApplications(
  bus: EventBus,
  processed: ProcessedEvents,
  savedSearches: Pick<SavedSearchRepository, 'markApplicationSubmitted'>,
) {
  bus.subscribe({
    consumerGroup: CONSUMER,
    types: [DIP_EVENT_TYPES.applicationSubmitted],
    handler: async (envelope) => {
      const data = applicationSubmittedEventSchema.parse(envelope.data);
      const { searchId } = data;
      if (!searchId) return;
      await processed.handleOnce(`${CONSUMER}:applications`, envelope, (session) =>
        savedSearches.markApplicationSubmitted(searchId, data.userId, session),
      );
    },
  });
}
