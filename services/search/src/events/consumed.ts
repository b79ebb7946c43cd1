import { randomUUID } from 'node:crypto';
import {
  DIP_EVENTS,
  DIP_EVENT_TYPES,
  IDENTITY_EVENTS,
  IDENTITY_EVENT_TYPES,
  SEARCH_EVENTS,
  SEARCH_EVENT_TYPES,
} from '@lsp/contracts';
import type { EventBus, Logger, ProcessedEvents } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import type { PanelStore } from '../data/panel-store';
import type { SavedSearchRepository } from '../data/saved-searches';
import {
  type RecordedRunDeps,
  replayRunOfAnyType,
  runMayBeSavedBy,
  saveRecordedRun,
  savedSearchOfRun,
} from '../use-cases/recorded-run';
import { type RepricingJob, queueRepricing } from '../use-cases/repricing-job';

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
      const data = DIP_EVENTS.applicationSubmitted.read(envelope);
      const { searchId } = data;
      if (!searchId) return;
      await processed.handleOnce(`${CONSUMER}:applications`, envelope, (session) =>
        savedSearches.markApplicationSubmitted(searchId, data.userId, session),
      );
    },
  });
}

/**
 * An account verified with the anonymous search run it was created with: that run is saved to the
 * account, built from the server's record of it, so the search is there on any device the person signs
 * in on. Only an anonymous run (or the user's own) is saved; a run saved already is not saved again.
 */
export function subscribeToVerifiedAccounts(
  bus: EventBus,
  processed: ProcessedEvents,
  deps: RecordedRunDeps & {
    savedSearches: Pick<SavedSearchRepository, 'insert' | 'findByRun'>;
    logger: Pick<Logger, 'warn'>;
  },
) {
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-accounts`,
    types: [IDENTITY_EVENT_TYPES.verified],
    handler: async (envelope) => {
      const { userId, searchRunId } = IDENTITY_EVENTS.verified.read(envelope);
      if (!searchRunId) return;
      const replayed = await replayRunOfAnyType(deps, searchRunId);
      if (!replayed || !runMayBeSavedBy(replayed.run, userId)) {
        deps.logger.warn({ userId, searchRunId }, 'the run an account was created with is not saved to it');
        return;
      }
      await processed.handleOnce(`${CONSUMER}:verified-accounts`, envelope, async (session) => {
        if (await deps.savedSearches.findByRun(userId, searchRunId, session)) return;
        const search = savedSearchOfRun(replayed, randomUUID(), userId, new Date());
        await saveRecordedRun(deps, search, envelope.correlationId, session);
      });
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
      const { version, previousVersion, activatedAt } = SEARCH_EVENTS.panelActivated.read(envelope);
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
