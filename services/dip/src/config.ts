import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const dipConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('dip'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4003),
});

export type DipConfig = z.infer<typeof dipConfigSchema>;
