import {
  IDENTITY_EVENT_TYPES,
  SHARING_EVENT_TYPES,
  type EventEnvelope,
  IDENTITY_EVENTS,
  SHARING_EVENTS,
} from '@lsp/contracts';
import { type EventBus, type ProcessedEvents, enqueue } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import type {
  EmailJob,
  PasswordChangedEmailJob,
  PasswordResetEmailJob,
  SharingEmailJob,
} from '../email/jobs';

/** The consumer name every processed-event marker and consumer group of this service starts with. */
export const CONSUMER = 'notifications';

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
  const data = IDENTITY_EVENTS.verificationRequested.read(envelope);
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

/** Turns `identity.password-reset.requested` into the reset email's job (once per event, as above). */
export async function handlePasswordResetRequested(
  envelope: EventEnvelope,
  processed: ProcessedEvents,
  queue: Queue<EmailJob>,
): Promise<boolean> {
  const data = IDENTITY_EVENTS.passwordResetRequested.read(envelope);
  return processed.handleOnce(`${CONSUMER}:email`, envelope, async () => {
    const job: PasswordResetEmailJob = {
      eventId: envelope.id,
      template: 'password-reset',
      to: data.email,
      name: data.name,
      resetUrl: data.resetUrl,
      expiresAt: data.expiresAt,
    };
    await enqueue<EmailJob>(queue, job.template, job, envelope.id);
  });
}

/** Turns `identity.password.changed` into the notice email's job (once per event, as above). */
export async function handlePasswordChanged(
  envelope: EventEnvelope,
  processed: ProcessedEvents,
  queue: Queue<EmailJob>,
): Promise<boolean> {
  const data = IDENTITY_EVENTS.passwordChanged.read(envelope);
  return processed.handleOnce(`${CONSUMER}:email`, envelope, async () => {
    const job: PasswordChangedEmailJob = {
      eventId: envelope.id,
      template: 'password-changed',
      to: data.email,
      name: data.name,
      email: data.email,
      changedAt: data.changedAt,
      how: data.how,
      forgotPasswordUrl: data.forgotPasswordUrl,
    };
    await enqueue<EmailJob>(queue, job.template, job, envelope.id);
  });
}

const IDENTITY_EMAIL_HANDLERS: Record<string, typeof handleVerificationRequested> = {
  [IDENTITY_EVENT_TYPES.verificationRequested]: handleVerificationRequested,
  [IDENTITY_EVENT_TYPES.passwordResetRequested]: handlePasswordResetRequested,
  [IDENTITY_EVENT_TYPES.passwordChanged]: handlePasswordChanged,
};

export function subscribeToIdentityEvents(bus: EventBus, processed: ProcessedEvents, queue: Queue<EmailJob>) {
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: CONSUMER,
    types: Object.keys(IDENTITY_EMAIL_HANDLERS),
    handler: async (envelope) => {
      await IDENTITY_EMAIL_HANDLERS[envelope.type]?.(envelope, processed, queue);
    },
  });
}

/** The email an event asks for, or null (an open share has no one to email; a repeat share within a day, no new email). */
export function sharingEmailJobFor(envelope: EventEnvelope): SharingEmailJob | null {
  switch (envelope.type) {
    case SHARING_EVENT_TYPES.shareCreated: {
      const d = SHARING_EVENTS.shareCreated.read(envelope);
      if (d.inviteType !== 'targeted' || !d.recipientEmail) return null;
      // Shared again within a day of the last email about this DIP: recorded, not emailed again.
      if (d.emailRecipient === false) return null;
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
      const d = SHARING_EVENTS.dealShared.read(envelope);
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
      const d = SHARING_EVENTS.referralCreated.read(envelope);
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
    readsVersion: 1,
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
