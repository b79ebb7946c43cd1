import {
  DIP_EVENT_TYPES,
  SEARCH_EVENT_TYPES,
  SHARING_EVENT_TYPES,
  type EventEnvelope,
  type WebhookPayload,
  SEARCH_EVENTS,
  DIP_EVENTS,
  SHARING_EVENTS,
} from '@lsp/contracts';
import type { EventBus } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import { type WebhookJob, enqueueWebhook } from '../webhooks/delivery';
import type { WebhookStore } from '../webhooks/store';
import { CONSUMER } from './consumed';

/**
 * The events a webhook endpoint may subscribe to, each turned into the delivery's body for the one
 * user it concerns: only what that user may see (their own DIP, search and shares; never another
 * user's address or id). Null for an event of another type.
 */
export function webhookPayloadFor(
  envelope: EventEnvelope,
): { userId: string; payload: WebhookPayload } | null {
  /** The user it concerns, and the delivery's body: the event's type and time, and what they may see. */
  const forUser = (userId: string, data: WebhookPayload['data']) => ({
    userId,
    payload: { type: envelope.type, timestamp: envelope.time, data },
  });
  switch (envelope.type) {
    case DIP_EVENT_TYPES.created: {
      const d = DIP_EVENTS.created.read(envelope);
      const { snapshot } = d;
      return forUser(d.ownerUserId, {
        dipId: d.dipId,
        quoteCode: d.quoteCode,
        searchId: d.searchId,
        loanIndex: d.loanIndex,
        loanType: snapshot.loanType,
        lenderName: snapshot.lenderName,
        productName: snapshot.productName,
        netLoan: snapshot.loan.netLoan,
        grossLoan: snapshot.loan.grossLoan,
        interestRate: snapshot.loan.interestRate,
        termMonths: snapshot.loan.termMonths,
        shareUrl: d.shareUrl,
        expiresAt: d.expiresAt,
        createdAt: d.createdAt,
      });
    }
    case SEARCH_EVENT_TYPES.repriced: {
      const { userId, ...data } = SEARCH_EVENTS.repriced.read(envelope);
      return forUser(userId, data);
    }
    case DIP_EVENT_TYPES.productChanged: {
      const { userId, ...data } = DIP_EVENTS.productChanged.read(envelope);
      return forUser(userId, data);
    }
    case SHARING_EVENT_TYPES.shareViewed: {
      const d = SHARING_EVENTS.shareViewed.read(envelope);
      // The owner typed the address of a share they sent; whoever opened the open link is not theirs to know.
      const via = d.linkId === undefined ? null : d.linkId === d.shareId ? 'invitation' : 'link';
      return forUser(d.ownerUserId, {
        shareId: d.shareId,
        dipId: d.dipId,
        via,
        recipientEmail: via === 'invitation' ? d.recipientEmail : null,
        viewedAt: d.viewedAt,
      });
    }
    default:
      return null;
  }
}

/**
 * One delivery job per enabled endpoint of the user that subscribes to the event's type. The job id
 * is the endpoint's and the event's, so a redelivered event queues nothing twice.
 */
export async function queueWebhookDeliveries(
  envelope: EventEnvelope,
  deps: { store: WebhookStore; queue: Queue<WebhookJob> },
): Promise<number> {
  const made = webhookPayloadFor(envelope);
  if (!made) return 0;
  const endpoints = await deps.store.subscribers(made.userId, envelope.type);
  for (const endpoint of endpoints) await enqueueWebhook(deps.queue, endpoint._id, envelope.id, made.payload);
  return endpoints.length;
}

export function subscribeToWebhookEvents(
  bus: EventBus,
  deps: { store: WebhookStore; queue: Queue<WebhookJob> },
) {
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-webhooks`,
    types: [
      DIP_EVENT_TYPES.created,
      SEARCH_EVENT_TYPES.repriced,
      DIP_EVENT_TYPES.productChanged,
      SHARING_EVENT_TYPES.shareViewed,
    ],
    handler: async (envelope) => {
      await queueWebhookDeliveries(envelope, deps);
    },
  });
}
