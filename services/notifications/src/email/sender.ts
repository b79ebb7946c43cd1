import { type Logger, createWorker } from '@lsp/service-kit';
import type { Job, Worker } from 'bullmq';
import type { Connection } from 'mongoose';
import nodemailer, { type Transporter } from 'nodemailer';
import { type NotificationsConfig, smtpUrlFor } from '../config';
import { sentEmails } from '../data/sent-emails';
import { dipProductAlertEmail, repricingAlertEmail } from './alert-templates';
import {
  EMAIL_QUEUE,
  type EmailJob,
  isAlertJob,
  isDipProductAlertJob,
  isRepricingAlertJob,
  isSharingEmailJob,
  isWebhookDisabledJob,
} from './jobs';
import { sharingEmail } from './sharing-templates';
import { verificationEmail } from './templates';
import { webhookDisabledEmail } from './webhook-templates';

/** Pooled: one SMTP connection reused across emails instead of a handshake per message. */
export function createMailTransport(
  config: Pick<NotificationsConfig, 'SMTP_URL' | 'MAIL_CATCHER_SMTP_PORT'>,
): Transporter {
  const url = new URL(smtpUrlFor(config));
  url.searchParams.set('pool', 'true');
  return nodemailer.createTransport(url.toString());
}

export interface EmailWorkerDeps {
  config: NotificationsConfig;
  logger: Logger;
  mongo: Connection;
  transport: Transporter;
}

/**
 * Sends the `email` queue's jobs. A job already recorded in `sent_emails` is not sent again (a
 * retried or taken-over job after the send succeeded); the Message-ID is derived from the event id,
 * so a receiving system can also recognise a repeat. A failed send throws: BullMQ retries with
 * exponential backoff and keeps the job in its failed set after the last attempt.
 */
export function startEmailWorker({ config, logger, mongo, transport }: EmailWorkerDeps): Worker<EmailJob> {
  const sent = sentEmails(mongo);
  const processor = async (job: Job<EmailJob>) => {
    const id = job.id ?? job.data.eventId;
    if (await sent.findOne({ _id: id })) {
      logger.info({ jobId: id }, 'email already sent; not sending again');
      return { skipped: true };
    }
    const email = isSharingEmailJob(job.data)
      ? sharingEmail(job.data)
      : isRepricingAlertJob(job.data)
        ? repricingAlertEmail(job.data)
        : isDipProductAlertJob(job.data)
          ? dipProductAlertEmail(job.data)
          : isWebhookDisabledJob(job.data)
            ? webhookDisabledEmail(job.data)
            : verificationEmail(job.data);
    // An alert says how to stop it where mail programs show an unsubscribe button, and that one POST
    // to that URL stops it (RFC 8058), so the program need not open the page.
    const headers = isAlertJob(job.data)
      ? {
          'List-Unsubscribe': `<${job.data.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        }
      : undefined;
    const messageId = `<${job.data.eventId}@notifications.loansearch.local>`;
    const info = await transport.sendMail({
      from: config.MAIL_FROM,
      to: job.data.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId,
      headers,
    });
    await sent.insertOne({
      _id: id,
      to: job.data.to,
      subject: email.subject,
      template: job.data.template,
      messageId,
      sentAt: new Date(),
    });
    logger.info({ jobId: id, template: job.data.template, smtp: info.response }, 'email sent');
    return { messageId };
  };
  return createWorker<EmailJob>(EMAIL_QUEUE, processor, config.REDIS_URL, logger, {
    prefix: config.QUEUE_PREFIX,
    concurrency: config.EMAIL_WORKER_CONCURRENCY,
    lockDuration: config.EMAIL_JOB_LOCK_MS,
    stalledInterval: config.EMAIL_STALLED_CHECK_MS,
  });
}
