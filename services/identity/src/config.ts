import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const identityConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('identity'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4001),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
