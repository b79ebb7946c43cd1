import { IDENTITY_EVENT_TYPES, type EventEnvelope, verificationRequestedEventSchema } from '@lsp/contracts';
import { enqueue } from '@lsp/service-kit';
import type { EventBus } from '@lsp/service-kit';
import type { ProcessedEvents } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import type { SharingEmailJob } from './sharing-email-jobs';

export const EMAIL_QUEUE = 'email';
export const CONSUMER = 'notifications';

/** One email to send. The job id is the id of the event that asked for it. */
export type EmailJob = VerificationEmailJob | SharingEmailJob;

export interface VerificationEmailJob {
  eventId: string;
  template: 'verify-email';
  to: string;
  name: string;
  verificationUrl: string;
  expiresAt: string;
}

/**
 * Turns `identity.verification.requested` into an `email` job. The processed-event marker and the
 * deterministic job id (= event id) both make a redelivered event add no second email; if adding
 * the job fails the marker is rolled back and the bus delivers the event again.
 */
export async function handleVerificationRequested(
  envelope: EventEnvelope,
  processed: ProcessedEvents,
  queue: Queue<EmailJob>,
): Promise<boolean> {
  const data = verificationRequestedEventSchema.parse(envelope.data);
  return processed.handleOnce(`${CONSUMER}:email`, envelope, async () => {
    await enqueue<EmailJob>(
      queue,
      'verify-email',
      {
        eventId: envelope.id,
        template: 'verify-email',
        to: data.email,
        name: data.name,
        verificationUrl: data.verificationUrl,
        expiresAt: data.expiresAt,
      },
      envelope.id,
    );
  });
}

export function subscribeToIdentityEvents(bus: EventBus, processed: ProcessedEvents, queue: Queue<EmailJob>) {
  bus.subscribe({
    consumerGroup: CONSUMER,
    types: [IDENTITY_EVENT_TYPES.verificationRequested],
    handler: async (envelope) => {
      await handleVerificationRequested(envelope, processed, queue);
    },
  });
}
