import {
  DIP_EVENT_TYPES,
  IDENTITY_EVENT_TYPES,
  SEARCH_EVENT_TYPES,
  type EventEnvelope,
  IDENTITY_EVENTS,
  SEARCH_EVENTS,
  DIP_EVENTS,
} from '@lsp/contracts';
import { type EventBus, type ProcessedEvents, enqueue } from '@lsp/service-kit';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { signUnsubscribeToken } from '../alerts/unsubscribe-token';
import type { AlertStore } from '../data/alerts';
import type { DipProductAlertEmailJob, EmailJob, RepricingAlertEmailJob } from '../email/jobs';
import { CONSUMER } from './consumed';

export interface AlertDeps {
  processed: ProcessedEvents;
  queue: Queue<EmailJob>;
  alerts: AlertStore;
  unsubscribeKey: Buffer;
  publicUrl: string;
  logger: Pick<Logger, 'warn'>;
}

/** What notifications knows of the user an alert event names. */
export interface AlertRecipientState {
  /** Their address is known (identity.user.registered reached notifications). */
  addressKnown: boolean;
  /** They have not turned re-pricing alerts off. */
  alertsOn: boolean;
}

/**
 * Whether an event is owed an alert (and so a processed marker): a search.repriced whose best offer
 * got better (with an offer after it), or any dip.product.changed, for a user whose address is known
 * and who keeps alerts on. The handlers below go by it, and the chaos run's reconciliation reads it on
 * the facts it finds in the databases.
 */
export function alertIsOwed(envelope: EventEnvelope, user: AlertRecipientState): boolean {
  if (envelope.type === SEARCH_EVENT_TYPES.repriced) {
    const { betterBest, bestAfter } = envelope.data as { betterBest?: boolean; bestAfter?: unknown };
    if (!betterBest || !bestAfter) return false;
  } else if (envelope.type !== DIP_EVENT_TYPES.productChanged) return false;
  return user.addressKnown && user.alertsOn;
}

/**
 * A saved search's best offer got better in a panel change: its owner gets one email for that change
 * (whichever of their searches comes first), unless they turned alerts off. The processed-event marker,
 * the alert record and the job are one transaction, and the job id is the alert's, so a redelivered
 * event or a second improved search sends nothing more.
 */
export async function handleSearchRepriced(envelope: EventEnvelope, deps: AlertDeps): Promise<boolean> {
  const data = SEARCH_EVENTS.repriced.read(envelope);
  // Read by alertIsOwed too; checked here for the email's content.
  if (!data.bestAfter) return false;
  const bestAfter = data.bestAfter;
  return sendAlertOnce(
    envelope,
    deps,
    { userId: data.userId, panelVersion: data.panelVersion, searchId: data.searchId },
    (recipient, unsubscribeUrl): RepricingAlertEmailJob => ({
      eventId: envelope.id,
      template: 'repricing-alert',
      to: recipient.email,
      name: recipient.name,
      projectName: data.projectName,
      bestBefore: data.bestBefore,
      bestAfter,
      resultsUrl: `${deps.publicUrl}/search-results/${encodeURIComponent(data.searchId)}`,
      unsubscribeUrl,
    }),
  );
}

/** One alert job per user per panel change, whichever event asks for it first. */
const alertJobId = (userId: string, panelVersion: string) => `repricing-alert-${userId}-${panelVersion}`;

const unsubscribeUrlFor = (userId: string, deps: AlertDeps) =>
  `${deps.publicUrl}/api/alerts/unsubscribe?token=${encodeURIComponent(signUnsubscribeToken(userId, deps.unsubscribeKey))}`;

/**
 * A panel change withdrew or repriced the products of some of a user's DIPs (dip names them in one
 * event per owner per change): the owner gets an email, unless alerts are off.
 *
 * It takes the same claim as the search alert (`<userId>@<panelVersion>`) and the same job id, so a
 * user whose search got better and whose DIP's product changed in one panel change still gets one
 * email: whichever event comes first says what it knows, and the second sends nothing. One combined
 * email would mean holding the first back until the other arrived, and neither event says whether
 * the other will come (search.repriced is sent only for searches that changed, after a re-pricing
 * run in batches; dip.product.changed only for owners of live DIPs), so any wait would be a guess
 * that delays every alert. The DIP email sends the owner to the dashboard, which shows both (the
 * notice on the DIP and the re-priced searches), and says so.
 */
export async function handleDipProductChanged(envelope: EventEnvelope, deps: AlertDeps): Promise<boolean> {
  const data = DIP_EVENTS.productChanged.read(envelope);
  return sendAlertOnce(
    envelope,
    deps,
    { userId: data.userId, panelVersion: data.panelVersion, dipIds: data.dips.map((d) => d.dipId) },
    (recipient, unsubscribeUrl): DipProductAlertEmailJob => ({
      eventId: envelope.id,
      template: 'dip-product-alert',
      to: recipient.email,
      name: recipient.name,
      dips: data.dips,
      dashboardUrl: `${deps.publicUrl}/dashboard?tab=dips`,
      unsubscribeUrl,
    }),
  );
}

/**
 * Queues a user's one alert email of a panel change: only to a known address, only while alerts are
 * on, and only if no alert of that change was claimed for them before (the claim, the event's
 * processed marker and the job are one transaction; the job id is the user's and the change's).
 */
async function sendAlertOnce(
  envelope: EventEnvelope,
  deps: AlertDeps,
  alert: Parameters<AlertStore['claimAlert']>[0],
  jobFor: (recipient: { email: string; name: string }, unsubscribeUrl: string) => EmailJob,
): Promise<boolean> {
  const recipient = await deps.alerts.recipient(alert.userId);
  const alertsOn = await deps.alerts.repricingAlertsOn(alert.userId);
  if (!alertIsOwed(envelope, { addressKnown: recipient !== null, alertsOn }) || !recipient) {
    if (!recipient && alertsOn)
      deps.logger.warn(
        { userId: alert.userId, type: envelope.type },
        'no email address known for an alert; none sent',
      );
    return false;
  }
  let queued = false;
  await deps.processed.handleOnce(`${CONSUMER}:alerts`, envelope, async (session) => {
    if (!(await deps.alerts.claimAlert(alert, session))) return;
    const job = jobFor(recipient, unsubscribeUrlFor(alert.userId, deps));
    await enqueue<EmailJob>(deps.queue, job.template, job, alertJobId(alert.userId, alert.panelVersion));
    queued = true;
  });
  return queued;
}

/** Whom alerts are written to: identity's registrations, kept as they arrive (idempotent). */
export async function handleUserRegistered(envelope: EventEnvelope, alerts: AlertStore): Promise<void> {
  const data = IDENTITY_EVENTS.registered.read(envelope);
  await alerts.saveRecipient(data.userId, data.email, data.name);
}

export function subscribeToAlertEvents(bus: EventBus, deps: AlertDeps) {
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: `${CONSUMER}-alerts`,
    types: [IDENTITY_EVENT_TYPES.registered, SEARCH_EVENT_TYPES.repriced, DIP_EVENT_TYPES.productChanged],
    handler: async (envelope) => {
      if (envelope.type === IDENTITY_EVENT_TYPES.registered)
        await handleUserRegistered(envelope, deps.alerts);
      else if (envelope.type === DIP_EVENT_TYPES.productChanged)
        await handleDipProductChanged(envelope, deps);
      else await handleSearchRepriced(envelope, deps);
    },
  });
}
