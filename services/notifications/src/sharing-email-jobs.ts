import {
  type EventEnvelope,
  SHARING_EVENT_TYPES,
  dealSharedEventSchema,
  referralCreatedEventSchema,
  shareCreatedEventSchema,
} from '@lsp/contracts';
import { type EventBus, type ProcessedEvents, enqueue } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import { CONSUMER, type EmailJob } from './email-jobs';
import type { SharingEmailInput } from './sharing-templates';

/** An email job for a share, a deal or a referral; the job id is the event id. */
export interface SharingEmailJob extends SharingEmailInput {
  eventId: string;
  to: string;
}

const SHARING_TEMPLATES = new Set(['dip-shared', 'deal-shared', 'referral-invitation']);

export const isSharingEmailJob = (job: { template: string }): job is SharingEmailJob =>
  SHARING_TEMPLATES.has(job.template);

/** The email an event asks for, or null (an open share has no one to email). */
export function sharingEmailJobFor(envelope: EventEnvelope): SharingEmailJob | null {
  switch (envelope.type) {
    case SHARING_EVENT_TYPES.shareCreated: {
      const d = shareCreatedEventSchema.parse(envelope.data);
      if (d.inviteType !== 'targeted' || !d.recipientEmail) return null;
      return {
        eventId: envelope.id,
        template: 'dip-shared',
        to: d.recipientEmail,
        senderName: d.sharedByName,
        message: d.message,
        link: d.shareUrl,
        quoteCode: d.quoteCode,
        expiresAt: d.expiresAt,
      };
    }
    case SHARING_EVENT_TYPES.dealShared: {
      const d = dealSharedEventSchema.parse(envelope.data);
      return {
        eventId: envelope.id,
        template: 'deal-shared',
        to: d.referralEmail,
        senderName: d.referrerName,
        message: d.note,
        link: d.dealUrl,
        lenderName: d.lenderName,
      };
    }
    case SHARING_EVENT_TYPES.referralCreated: {
      const d = referralCreatedEventSchema.parse(envelope.data);
      return {
        eventId: envelope.id,
        template: 'referral-invitation',
        to: d.referralEmail,
        senderName: d.referrerName,
        message: d.message,
        link: d.inviteUrl,
      };
    }
    default:
      return null;
  }
}

/**
 * share.created (targeted), deal.shared and referral.created become `email` jobs, once per event: the
 * processed marker and the job id (= event id) both stop a redelivery sending twice.
 */
export async function handleSharingEvent(
  envelope: EventEnvelope,
  processed: ProcessedEvents,
  queue: Queue<EmailJob>,
): Promise<boolean> {
  const job = sharingEmailJobFor(envelope);
  if (!job) return false;
  return processed.handleOnce(`${CONSUMER}:email`, envelope, async () => {
    await enqueue<EmailJob>(queue, job.template, job, envelope.id);
  });
}

export function subscribeToSharingEvents(bus: EventBus, processed: ProcessedEvents, queue: Queue<EmailJob>) {
  bus.subscribe({
    // A group of its own, beside identity's: one Kafka consumer group per subscription.
    consumerGroup: `${CONSUMER}-sharing`,
    types: [
      SHARING_EVENT_TYPES.shareCreated,
      SHARING_EVENT_TYPES.dealShared,
      SHARING_EVENT_TYPES.referralCreated,
    ],
    handler: async (envelope) => {
      await handleSharingEvent(envelope, processed, queue);
    },
  });
}
