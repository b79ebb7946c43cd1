import { defaultPortOf, defaultUrlOf } from '@lsp/contracts';
import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const sharingConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('sharing'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('sharing')),
  /** Where the site is reached: the links in share, deal and referral emails start with it. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  /** Signs every share link (HMAC-SHA256 over slug, email and expiry). */
  SHARE_LINK_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** The secret before the last rotation: its links keep working until SHARE_LINK_PREVIOUS_SECRET_UNTIL. */
  SHARE_LINK_PREVIOUS_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SHARE_LINK_PREVIOUS_SECRET_UNTIL: z.string().datetime({ offset: true }).optional(),
  /**
   * Invitation emails one user may have sent in any 60 minutes: DIP shares (one per address emailed),
   * deal shares and referrals together.
   */
  INVITATIONS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Share-funnel events one session, user or address may record per minute. */
  TELEMETRY_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /** The dip service: every decision about a DIP's link is made on its answer. */
  DIP_URL: z.string().url().default(defaultUrlOf('dip')),
  /** The search service: a deal shared is its record of the run's offer. */
  SEARCH_URL: z.string().url().default(defaultUrlOf('search')),
});

export type SharingConfig = z.infer<typeof sharingConfigSchema>;
