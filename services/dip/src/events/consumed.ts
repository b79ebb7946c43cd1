import {
  type EventEnvelope,
  SEARCH_EVENT_TYPES,
  SHARING_EVENT_TYPES,
  DIP_EVENTS,
  SEARCH_EVENTS,
  SHARING_EVENTS,
} from '@lsp/contracts';
import type { Clock, EventBus, ProcessedEvents } from '@lsp/service-kit';
import type { ChangedProduct, DipRepository, MarkedDip } from '../data/dips';
import type { AccessProjection, SavedSearchProjection } from '../data/projections';

export const CONSUMER = 'dip';

export interface ConsumerDeps {
  processed: ProcessedEvents;
  savedSearches: SavedSearchProjection;
  access: AccessProjection;
  dips: Pick<DipRepository, 'markShared' | 'markProductChanges'>;
  /** Which DIPs are still live when a panel change arrives. */
  clock: Clock;
}

/** What a panel change did to a product, as a DIP issued from it on other terms records it. */
const DIP_CHANGE_OF = { removed: 'withdrawn', changed: 'repriced', added: null } as const;

/**
 * A lender panel activation: every live DIP issued from a product it removed or changed is marked
 * (its terms stay as issued), unless the product is back on the terms the DIP was priced on (a
 * rollback), which ends the DIP's notice instead. Each owner of a marked DIP gets one
 * dip.product.changed naming their DIPs, written with the marks and the processed-event marker in
 * one transaction, so a redelivered activation marks and publishes nothing more.
 */
export async function handlePanelActivated(
  envelope: EventEnvelope,
  deps: Pick<ConsumerDeps, 'processed' | 'dips' | 'clock'>,
): Promise<void> {
  const data = SEARCH_EVENTS.panelActivated.read(envelope);
  const products: ChangedProduct[] = data.changedProducts.map(
    ({ lenderId, productId, change, sameTermsIn }) => ({
      lenderId,
      productId,
      change: DIP_CHANGE_OF[change],
      sameTermsIn,
    }),
  );
  // Taken even when no product concerns a DIP: every activation is handled once.
  await deps.processed.handleOnce(`${CONSUMER}:panel`, envelope, async (session) => {
    if (products.length === 0) return;
    await deps.dips.markProductChanges(
      { panelVersion: data.version, at: new Date(data.activatedAt), products },
      deps.clock.now(),
      (marked) => ownersEvents(marked, data.version, data.activatedAt, envelope.correlationId),
      session,
    );
  });
}

function ownersEvents(
  marked: MarkedDip[],
  panelVersion: string,
  changedAt: string,
  correlationId: string | undefined,
): EventEnvelope[] {
  const byOwner = new Map<string, MarkedDip[]>();
  for (const m of marked) byOwner.set(m.userId, [...(byOwner.get(m.userId) ?? []), m]);
  return [...byOwner].map(([userId, dips]) =>
    DIP_EVENTS.productChanged.envelope(
      {
        userId,
        panelVersion,
        changedAt,
        dips: dips.map(({ dipId, quoteCode, lenderName, productName, change }) => ({
          dipId,
          quoteCode,
          lenderName,
          productName,
          change,
        })),
      },
      { correlationId },
    ),
  );
}

/**
 * The projections dip keeps: saved searches (to make DIPs from while search is down) and who else may
 * open a DIP or download its PDF (from sharing's events); and the lender panel's changes to the products
 * DIPs were issued from. Each event is handled once: its marker and its change commit together.
 */
export function subscribeToProjections(bus: EventBus, deps: ConsumerDeps) {
  const { processed } = deps;
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-searches`,
    types: [SEARCH_EVENT_TYPES.saved],
    handler: async (envelope) => {
      const data = SEARCH_EVENTS.saved.read(envelope);
      await processed.handleOnce(`${CONSUMER}:searches`, envelope, (session) =>
        deps.savedSearches.record(data, session),
      );
    },
  });
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-access`,
    types: [
      SHARING_EVENT_TYPES.shareCreated,
      SHARING_EVENT_TYPES.shareViewed,
      SHARING_EVENT_TYPES.shareRevoked,
    ],
    handler: async (envelope) => {
      await processed.handleOnce(`${CONSUMER}:access`, envelope, async (session) => {
        if (envelope.type === SHARING_EVENT_TYPES.shareCreated) {
          const data = SHARING_EVENTS.shareCreated.read(envelope);
          await deps.access.shareCreated(data, session);
          await deps.dips.markShared(data.dipId, new Date(data.createdAt), session);
        } else if (envelope.type === SHARING_EVENT_TYPES.shareViewed) {
          await deps.access.shareViewed(SHARING_EVENTS.shareViewed.read(envelope), session);
        } else {
          const data = SHARING_EVENTS.shareRevoked.read(envelope);
          await deps.access.shareRevoked(data.shareId, new Date(data.revokedAt), session);
        }
      });
    },
  });
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-panel`,
    types: [SEARCH_EVENT_TYPES.panelActivated],
    handler: (envelope) => handlePanelActivated(envelope, deps),
  });
}
