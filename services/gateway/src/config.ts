import { defaultPortOf, defaultUrlOf } from '@lsp/contracts';
import { baseConfigSchema, envFlag } from '@lsp/service-kit';
import { z } from 'zod';

const url = z.string().url();

export const gatewayConfigSchema = baseConfigSchema.extend({
  SERVICE_NAME: z.string().default('gateway'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('gateway')),
  COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters'),
  IDENTITY_URL: url.default(defaultUrlOf('identity')),
  SEARCH_URL: url.default(defaultUrlOf('search')),
  DIP_URL: url.default(defaultUrlOf('dip')),
  SHARING_URL: url.default(defaultUrlOf('sharing')),
  NOTIFICATIONS_URL: url.default(defaultUrlOf('notifications')),
  SHELL_URL: url.default(defaultUrlOf('shell')),
  SEARCH_REMOTE_URL: url.default(defaultUrlOf('search-mf')),
  DASHBOARD_REMOTE_URL: url.default(defaultUrlOf('dashboard-mf')),
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
  /** Only when the public URL is https: marks the session cookie Secure and sends HSTS. */
  PUBLIC_URL: url.default('http://localhost:8080'),
  /**
   * Proxies in front of the gateway whose X-Forwarded-For may be believed (a hop count, as
   * fastify's trustProxy). 0 by default: the client address is the connection's, so a client
   * cannot pick the address its rate limits are counted against.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).default(0),
  /** Largest request body accepted (bytes); larger ones get 413 before reaching a service. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** Requests per client address per window on /api, and the stricter allowance for sign-in and sign-up. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().positive().default(30),
  /** Requests per API key per RATE_LIMIT_WINDOW_SECONDS (a keyed call counts here, not per address). */
  API_KEY_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  /** How long an Idempotency-Key's answer is kept and replayed, per user. */
  IDEMPOTENCY_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3600),
  /** Routes /dev/mail to the notifications service's mail catcher; never on in production. */
  MAIL_CATCHER_ENABLED: envFlag,
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
