import type { DipProductAlertInput, RepricingAlertInput } from './alert-templates';
import type { SharingEmailInput } from './sharing-templates';
import type { WebhookDisabledInput } from './webhook-templates';

export const EMAIL_QUEUE = 'email';

/** One email to send. The job id is the id of the event that asked for it. */
export type EmailJob =
  | VerificationEmailJob
  | PasswordResetEmailJob
  | PasswordChangedEmailJob
  | SharingEmailJob
  | RepricingAlertEmailJob
  | DipProductAlertEmailJob
  | WebhookDisabledEmailJob;

export interface VerificationEmailJob {
  eventId: string;
  template: 'verify-email';
  to: string;
  name: string;
  verificationUrl: string;
  expiresAt: string;
}

export interface PasswordResetEmailJob {
  eventId: string;
  template: 'password-reset';
  to: string;
  name: string;
  resetUrl: string;
  expiresAt: string;
}

export interface PasswordChangedEmailJob {
  eventId: string;
  template: 'password-changed';
  to: string;
  name: string;
  email: string;
  changedAt: string;
  how: 'reset' | 'change';
  forgotPasswordUrl: string;
}

/** An email job for a share, a deal or a referral; the job id is the event id. */
export interface SharingEmailJob extends SharingEmailInput {
  eventId: string;
  to: string;
}

const SHARING_TEMPLATES = new Set(['dip-shared', 'deal-shared', 'referral-invitation']);

export const isSharingEmailJob = (job: { template: string }): job is SharingEmailJob =>
  SHARING_TEMPLATES.has(job.template);

/**
 * A re-pricing alert; the job id is `repricing-alert-<userId>-<panelVersion>` (at most one per user
 * per change), shared with the DIP product alert: one alert job per user per change, whichever asks.
 */
export interface RepricingAlertEmailJob extends RepricingAlertInput {
  eventId: string;
  to: string;
}

export const isRepricingAlertJob = (job: { template: string }): job is RepricingAlertEmailJob =>
  job.template === 'repricing-alert';

/** The alert that a panel change withdrew or repriced the products of a user's DIPs; job id as above. */
export interface DipProductAlertEmailJob extends DipProductAlertInput {
  eventId: string;
  to: string;
}

export const isDipProductAlertJob = (job: { template: string }): job is DipProductAlertEmailJob =>
  job.template === 'dip-product-alert';

/** The alerts: each says how to stop it (List-Unsubscribe and the link in the email). */
export const isAlertJob = (job: {
  template: string;
}): job is RepricingAlertEmailJob | DipProductAlertEmailJob =>
  isRepricingAlertJob(job) || isDipProductAlertJob(job);

/** A webhook endpoint was disabled after its last failed try; the job id is the endpoint's. */
export interface WebhookDisabledEmailJob extends WebhookDisabledInput {
  eventId: string;
  to: string;
}

export const isWebhookDisabledJob = (job: { template: string }): job is WebhookDisabledEmailJob =>
  job.template === 'webhook-disabled';
