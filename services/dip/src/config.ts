import { defaultPortOf, defaultUrlOf } from '@lsp/contracts';
import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const dipConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('dip'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('dip')),
  /** The address people use: share links and the online DIP page are built on it. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  /** How long a PDF download waits for the worker before answering 503 with "try again". */
  PDF_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
  QUEUE_PREFIX: z.string().default('bull'),
  /** The search service, asked for a saved search dip has not yet learnt of from search.saved. */
  SEARCH_URL: z.string().url().default(defaultUrlOf('search')),
  /** The sharing service, asked about a share dip has not yet learnt of from its events. */
  SHARING_URL: z.string().url().default(defaultUrlOf('sharing')),
});

export type DipConfig = z.infer<typeof dipConfigSchema>;

export const pdfWorkerConfigSchema = dipConfigSchema.extend({
  SERVICE_NAME: z.string().default('pdf-worker'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('pdf-worker')),
  /** Debian's Chromium; never downloaded. */
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  /** Pages rendering at once in the one browser of a worker. */
  PDF_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** A render whose worker stops renewing its lock this long is taken over by another worker. */
  PDF_JOB_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  PDF_STALLED_CHECK_MS: z.coerce.number().int().min(500).max(600_000).default(15_000),
});

export type PdfWorkerConfig = z.infer<typeof pdfWorkerConfigSchema>;
