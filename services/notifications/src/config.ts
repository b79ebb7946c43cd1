import { baseConfigSchema, envFlag } from '@lsp/service-kit';
import { OPS_FEED_CLIENT_BUFFER, defaultPortOf, defaultUrlOf } from '@lsp/contracts';
import { z } from 'zod';

export const notificationsConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('notifications'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('notifications')),
  /** Where emails are sent (smtp:// or smtps://, credentials in the URL). Unset: the built-in catcher. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Loan Search <no-reply@loansearch.local>'),
  /** Runs the development mail catcher: an SMTP server that keeps messages, listed at /dev/mail. */
  MAIL_CATCHER_ENABLED: envFlag,
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
  // ---- webhooks (src/webhooks)
  /**
   * Lets webhook endpoints be http and reach loopback and private addresses: for tests and local
   * development only (refused when NODE_ENV=production).
   */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: envFlag,
  /** How many webhook tries the worker makes at once (each waits at most 10 s for its answer). */
  WEBHOOK_WORKER_CONCURRENCY: z.coerce.number().int().positive().default(8),
  // ---- the operations console (src/ops)
  /** Events the feed keeps in memory for replay, resume and the correlation view. */
  OPS_TAP_BUFFER: z.coerce.number().int().min(100).max(1_000_000).default(5000),
  /** Events one feed viewer may have waiting before the oldest are dropped (and counted). */
  OPS_FEED_CLIENT_BUFFER: z.coerce.number().int().min(1).max(100_000).default(OPS_FEED_CLIENT_BUFFER),
  /**
   * The processes of the health grid, `name=url` comma-separated (each answers /health and /metrics).
   * Unset: the services at IDENTITY_URL ... NOTIFICATIONS_URL, their workers at the service's port + 10
   * (npm start's layout) and the gateway at PUBLIC_URL when that is a loopback address.
   */
  OPS_TARGETS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return undefined;
      const targets: Array<{ name: string; url: string }> = [];
      for (const part of text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const eq = part.indexOf('=');
        const name = part.slice(0, eq).trim();
        const url = part.slice(eq + 1).trim();
        if (eq <= 0 || !/^https?:\/\/[^\s]+$/.test(url)) {
          ctx.addIssue({ code: 'custom', message: `"${part}" is not name=http://host:port` });
          return z.NEVER;
        }
        targets.push({ name, url: url.replace(/\/+$/, '') });
      }
      return targets;
    }),
  IDENTITY_URL: z.string().url().default(defaultUrlOf('identity')),
  SEARCH_URL: z.string().url().default(defaultUrlOf('search')),
  DIP_URL: z.string().url().default(defaultUrlOf('dip')),
  SHARING_URL: z.string().url().default(defaultUrlOf('sharing')),
  NOTIFICATIONS_URL: z.string().url().default(defaultUrlOf('notifications')),
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
});

export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;

/** The SMTP server the worker sends through: SMTP_URL, or the catcher on this machine. */
export function smtpUrlFor(config: Pick<NotificationsConfig, 'SMTP_URL' | 'MAIL_CATCHER_SMTP_PORT'>): string {
  return config.SMTP_URL ?? `smtp://127.0.0.1:${config.MAIL_CATCHER_SMTP_PORT}`;
}
