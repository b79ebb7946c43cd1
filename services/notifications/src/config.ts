import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

export const notificationsConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('notifications'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4005),
});

export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
