import {
  IDENTITY_EVENT_TYPES,
  SEARCH_EVENT_TYPES,
  type EventEnvelope,
  searchRepricedEventSchema,
  userRegisteredEventSchema,
} from '@lsp/contracts';
import { type EventBus, type ProcessedEvents, enqueue } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { signUnsubscribeToken } from '../alerts/unsubscribe-token';
import type { AlertStore } from '../data/alerts';
import type { EmailJob, RepricingAlertEmailJob } from '../email/jobs';
import { CONSUMER } from './consumed';

export interface AlertDeps {
  processed: ProcessedEvents;
  queue: Queue<EmailJob>;
  alerts: AlertStore;
  unsubscribeKey: Buffer;
  publicUrl: string;
  logger: Pick<Logger, 'warn'>;
}

/**
 * A saved search's best offer got better in a panel change: its owner gets one email for that change
 * (whichever of their searches comes first), unless they turned alerts off. The processed-event marker,
 * the alert record and the job are one transaction, and the job id is the alert's, so a redelivered
 * event or a second improved search sends nothing more.
 */
export async function handleSearchRepriced(envelope: EventEnvelope, deps: AlertDeps): Promise<boolean> {
  const data = searchRepricedEventSchema.parse(envelope.data);
  if (!data.betterBest || !data.bestAfter) return false;
  const bestAfter = data.bestAfter;
  const recipient = await deps.alerts.recipient(data.userId);
  if (!recipient) {
    deps.logger.warn({ userId: data.userId }, 'no email address known for a re-pricing alert; none sent');
    return false;
  }
  if (!(await deps.alerts.repricingAlertsOn(data.userId))) return false;
  let queued = false;
  await deps.processed.handleOnce(`${CONSUMER}:alerts`, envelope, async (session) => {
    const claimed = await deps.alerts.claimAlert(
      { userId: data.userId, panelVersion: data.panelVersion, searchId: data.searchId },
      session,
    );
    if (!claimed) return;
    const token = signUnsubscribeToken(data.userId, deps.unsubscribeKey);
    const job: RepricingAlertEmailJob = {
      eventId: envelope.id,
      template: 'repricing-alert',
      to: recipient.email,
      name: recipient.name,
      projectName: data.projectName,
      bestBefore: data.bestBefore,
      bestAfter,
      resultsUrl: `${deps.publicUrl}/search-results/${encodeURIComponent(data.searchId)}`,
      unsubscribeUrl: `${deps.publicUrl}/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`,
    };
    await enqueue<EmailJob>(
      deps.queue,
      job.template,
      job,
      `repricing-alert-${data.userId}-${data.panelVersion}`,
    );
    queued = true;
  });
  return queued;
}

/** Whom alerts are written to: identity's registrations, kept as they arrive (idempotent). */
export async function handleUserRegistered(envelope: EventEnvelope, alerts: AlertStore): Promise<void> {
  const data = userRegisteredEventSchema.parse(envelope.data);
  await alerts.saveRecipient(data.userId, data.email, data.name);
}

export function subscribeToAlertEvents(bus: EventBus, deps: AlertDeps) {
  bus.subscribe({
    consumerGroup: `${CONSUMER}-alerts`,
    types: [IDENTITY_EVENT_TYPES.registered, SEARCH_EVENT_TYPES.repriced],
    handler: async (envelope) => {
      if (envelope.type === IDENTITY_EVENT_TYPES.registered)
        await handleUserRegistered(envelope, deps.alerts);
      else await handleSearchRepriced(envelope, deps);
    },
  });
}
