import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const searchConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('search'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4002),
});

export type SearchConfig = z.infer<typeof searchConfigSchema>;
