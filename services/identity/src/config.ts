import { defaultPortOf } from '@lsp/contracts';
import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const identityConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('identity'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('identity')),
  /** Signs the session cookie; the gateway verifies it with the same secret. */
  COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** Where people reach the site: verification links point here; https makes the cookie Secure. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  /** Comma-separated emails whose verified accounts get the `ops` role (the operations console) at sign-in. */
  OPS_EMAILS: z.string().default(''),
  /**
   * scrypt cost of new hashes as a power of two: 17 = N 131072, 128 MiB per hash with r 8 (OWASP's
   * minimum). Older, cheaper hashes are replaced at the next successful sign-in.
   */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(17),
  /** Sessions slide 7 days while used, but end this long after sign-in whatever happens (30 days). */
  SESSION_ABSOLUTE_LIFETIME_SECONDS: count(30 * 24 * 3600),
  /** A password-reset link works once, within this many minutes. */
  PASSWORD_RESET_TTL_MINUTES: count(30),
  /** Reset emails per address: one per interval and at most this many per hour (registered or not). */
  PASSWORD_RESET_MIN_INTERVAL_SECONDS: count(60),
  PASSWORD_RESET_MAX_PER_HOUR: count(5),
  /** Reset requests per client address per hour, whatever the addresses asked about. */
  PASSWORD_RESET_MAX_PER_HOUR_PER_IP: count(20),
  VERIFICATION_TTL_HOURS: count(24),
  /** Verification emails per address: one per interval, and at most this many per hour. */
  RESEND_MIN_INTERVAL_SECONDS: count(60),
  RESEND_MAX_PER_HOUR: count(5),
  /** Failed sign-ins counted per email and per client address within this window. */
  LOGIN_FAILURE_WINDOW_SECONDS: count(15 * 60),
  /** From this many failures on, each further attempt waits a little longer before answering. */
  LOGIN_SLOWDOWN_AFTER: count(3),
  LOGIN_SLOWDOWN_STEP_MS: z.coerce.number().int().min(0).default(500),
  LOGIN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).default(3000),
  /**
   * From this many failures on, sign-in is refused with 429 until the window passes: per email for
   * clients without a device cookie for the account, per device for those with one.
   */
  LOGIN_LOCK_AFTER_PER_EMAIL: count(8),
  /** Failures of clients without a device cookie from one address; browsers with one are never locked by it. */
  LOGIN_LOCK_AFTER_PER_IP: count(30),
  /** How long a device cookie (issued at each sign-in, naming the account) keeps its browser trusted. */
  DEVICE_COOKIE_LIFETIME_DAYS: count(180),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
