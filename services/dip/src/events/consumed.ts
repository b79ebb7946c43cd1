import {
  SEARCH_EVENT_TYPES,
  SHARING_EVENT_TYPES,
  searchSavedEventSchema,
  shareCreatedEventSchema,
  shareRevokedEventSchema,
  shareViewedEventSchema,
} from '@lsp/contracts';
import type { EventBus, ProcessedEvents } from '@lsp/service-kit';
import type { DipRepository } from '../data/dips';
import type { AccessProjection, SavedSearchProjection } from '../data/projections';

export const CONSUMER = 'dip';

export interface ConsumerDeps {
  processed: ProcessedEvents;
  savedSearches: SavedSearchProjection;
  access: AccessProjection;
  dips: Pick<DipRepository, 'markShared'>;
}

/**
 * The projections dip keeps: saved searches (to make DIPs from while search is down) and who else may
 * open a DIP or download its PDF (from sharing's events). Each event is handled once: its marker and
 * its change commit together.
 */
export function subscribeToProjections(bus: EventBus, deps: ConsumerDeps) {
  const { processed } = deps;
  bus.subscribe({
    consumerGroup: `${CONSUMER}-searches`,
    types: [SEARCH_EVENT_TYPES.saved],
    handler: async (envelope) => {
      const data = searchSavedEventSchema.parse(envelope.data);
      await processed.handleOnce(`${CONSUMER}:searches`, envelope, (session) =>
        deps.savedSearches.record(data, session),
      );
    },
  });
  bus.subscribe({
    consumerGroup: `${CONSUMER}-access`,
    types: [
      SHARING_EVENT_TYPES.shareCreated,
      SHARING_EVENT_TYPES.shareViewed,
      SHARING_EVENT_TYPES.shareRevoked,
    ],
    handler: async (envelope) => {
      await processed.handleOnce(`${CONSUMER}:access`, envelope, async (session) => {
        if (envelope.type === SHARING_EVENT_TYPES.shareCreated) {
          const data = shareCreatedEventSchema.parse(envelope.data);
          await deps.access.shareCreated(data, session);
          await deps.dips.markShared(data.dipId, new Date(data.createdAt), session);
        } else if (envelope.type === SHARING_EVENT_TYPES.shareViewed) {
          await deps.access.shareViewed(shareViewedEventSchema.parse(envelope.data), session);
        } else {
          const data = shareRevokedEventSchema.parse(envelope.data);
          await deps.access.shareRevoked(data.shareId, new Date(data.revokedAt), session);
        }
      });
    },
  });
}
