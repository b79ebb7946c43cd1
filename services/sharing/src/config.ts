import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const sharingConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('sharing'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4004),
});

export type SharingConfig = z.infer<typeof sharingConfigSchema>;
