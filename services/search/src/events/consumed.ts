import {
  DIP_EVENT_TYPES,
  SEARCH_EVENT_TYPES,
  applicationSubmittedEventSchema,
  panelActivatedEventSchema,
} from '@lsp/contracts';
import type { EventBus, ProcessedEvents } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import type { PanelStore } from '../data/panel-store';
import type { SavedSearchRepository } from '../data/saved-searches';
import { type RepricingJob, queueRepricing } from '../searching/repricing-job';

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
    readsVersion: 1,
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

/**
 * A new lender panel re-prices the saved searches: the activation is queued for the re-pricing
 * worker (once, whatever the redeliveries: the job id is the activation's). The shipped panel's first
 * activation has nothing before it to compare with.
 */
export function subscribeToPanelActivations(bus: EventBus, queue: Queue<RepricingJob>) {
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-repricing`,
    types: [SEARCH_EVENT_TYPES.panelActivated],
    handler: async (envelope) => {
      const { version, previousVersion, activatedAt } = panelActivatedEventSchema.parse(envelope.data);
      if (!previousVersion) return;
      await queueRepricing(queue, { version, previousVersion, activatedAt });
    },
  });
}

/**
 * Every search instance switches to a newly activated lender panel on `panel.activated` (each instance
 * gets the event); the periodic check of the active version stays as the safety net for an event
 * that is late or missed.
 */
export function subscribeToPanelSwitches(bus: EventBus, panels: Pick<PanelStore, 'refresh'>) {
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-panel`,
    everyInstance: true,
    types: [SEARCH_EVENT_TYPES.panelActivated],
    // Reads which version is active now: a late or repeated event changes nothing.
    handler: async () => {
      await panels.refresh();
    },
  });
}
