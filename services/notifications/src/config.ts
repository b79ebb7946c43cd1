import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

export const notificationsConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('notifications'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4005),
  /** Where emails are sent (smtp:// or smtps://, credentials in the URL). Unset: the built-in catcher. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Loan Search <no-reply@loansearch.local>'),
  /** Runs the development mail catcher: an SMTP server that keeps messages, listed at /dev/mail. */
  MAIL_CATCHER_ENABLED: flag,
  MAIL_CATCHER_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(1025),
  EMAIL_WORKER_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /**
   * How long a worker's claim on a job lasts without renewal. A worker that dies mid-send loses its
   * claim after this and another (or the restarted one) takes the job over.
   */
  EMAIL_JOB_LOCK_MS: z.coerce.number().int().positive().default(30_000),
  EMAIL_STALLED_CHECK_MS: z.coerce.number().int().positive().default(30_000),
  /** The notifications database (sent emails, caught mail, processed events). */
  DB_NAME: z.string().min(1).default('notifications'),
  /** BullMQ key prefix, so environments can share one Redis. */
  QUEUE_PREFIX: z.string().default('bull'),
});

export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;

/** The SMTP server the worker sends through: SMTP_URL, or the catcher on this machine. */
export function smtpUrlFor(config: Pick<NotificationsConfig, 'SMTP_URL' | 'MAIL_CATCHER_SMTP_PORT'>): string {
  return config.SMTP_URL ?? `smtp://127.0.0.1:${config.MAIL_CATCHER_SMTP_PORT}`;
}
