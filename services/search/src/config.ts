import { defaultPortOf, defaultUrlOf } from '@lsp/contracts';
import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const searchConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('search'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('search')),
  /** How often each instance checks whether the operator replaced the lender panel. */
  PANEL_REFRESH_MS: z.coerce.number().int().min(500).max(600_000).default(5000),
  /** JSON Lines panel a fresh database is seeded with; the panel shipped with the service by default. */
  PANEL_SEED_FILE: z.string().min(1).optional(),
  /** The dip service, asked which saved searches have an application (it owns applications). */
  DIP_URL: z.string().url().default(defaultUrlOf('dip')),
  /** BullMQ's key prefix for the re-pricing queue (the API queues its jobs, the worker runs them). */
  QUEUE_PREFIX: z.string().default('bull'),
});

export type SearchConfig = z.infer<typeof searchConfigSchema>;

/** The re-pricing worker (its own process): the search service's settings on its own port. */
export const repricingWorkerConfigSchema = searchConfigSchema.extend({
  SERVICE_NAME: z.string().default('repricing-worker'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('repricing-worker')),
  /**
   * Saved searches re-priced per committed batch: small, since each batch's transaction holds the
   * database for a moment that live searches wait behind (docs/performance.md).
   */
  REPRICING_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(20),
  /**
   * The worker's scheduling priority (nice, 0 to 19): on a machine it shares with the search service,
   * live searches get the CPU first and re-pricing takes what is left.
   */
  REPRICING_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /**
   * The share of wall time the worker spends re-pricing, resting in between (0 < x ≤ 1): nice lowers
   * only the worker's own CPU, while each batch also costs the database that live searches use.
   */
  REPRICING_DUTY_CYCLE: z.coerce.number().gt(0).max(1).default(0.33),
});

export type RepricingWorkerConfig = z.infer<typeof repricingWorkerConfigSchema>;
