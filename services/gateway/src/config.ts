import { baseConfigSchema } from '@lsp/service-kit';
import { z } from 'zod';

const url = z.string().url();

export const gatewayConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('gateway'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters'),
  IDENTITY_URL: url.default('http://127.0.0.1:4001'),
  SEARCH_URL: url.default('http://127.0.0.1:4002'),
  DIP_URL: url.default('http://127.0.0.1:4003'),
  SHARING_URL: url.default('http://127.0.0.1:4004'),
  NOTIFICATIONS_URL: url.default('http://127.0.0.1:4005'),
  SHELL_URL: url.default('http://127.0.0.1:3000'),
  SEARCH_REMOTE_URL: url.default('http://127.0.0.1:3001'),
  DASHBOARD_REMOTE_URL: url.default('http://127.0.0.1:3002'),
  /** Where the browser loads each remote's manifest from (served through this gateway by default). */
  REMOTES_JSON: z
    .string()
    .default(
      '[{"name":"search","entry":"/mf/search/mf-manifest.json"},{"name":"dashboard","entry":"/mf/dashboard/mf-manifest.json"}]',
    )
    .transform((text, ctx) => {
      try {
        return z.array(z.object({ name: z.string(), entry: z.string() })).parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list of {name, entry}' });
        return z.NEVER;
      }
    }),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
  /** Only when the public URL is https: marks the session cookie Secure. */
  PUBLIC_URL: url.default('http://localhost:8080'),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
