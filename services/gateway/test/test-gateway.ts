// The real gateway on a free port in front of in-process services, for other services' integration
// tests (`import { startTestGateway } from '@lsp/gateway/testing'`). It lives here, not in
// @lsp/testing, so that no package depends on a service.
import { DOWN_URL, type Listening, TEST_SECRETS, connectedRedis, listen, silentLogger } from '@lsp/testing';
import { ServiceMetrics } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildGateway } from '../src/app';
import { type GatewayConfig, gatewayConfigSchema } from '../src/config';

export type UpstreamUrls = Partial<
  Record<'identity' | 'search' | 'dip' | 'sharing' | 'notifications' | 'shell', string>
>;

export interface TestGateway extends Listening {
  app: FastifyInstance;
  config: GatewayConfig;
  redis: Redis;
}

/**
 * The real gateway on a free port in front of in-process services. Upstreams not given answer as
 * down; `env` overrides any other gateway variable (rate limits, PUBLIC_URL, ...).
 */
export async function startTestGateway(opts: {
  redisUrl: string;
  upstreams: UpstreamUrls;
  env?: Record<string, string>;
}): Promise<TestGateway> {
  const { upstreams } = opts;
  const config = gatewayConfigSchema.parse({
    ...TEST_SECRETS,
    REDIS_URL: opts.redisUrl,
    IDENTITY_URL: upstreams.identity ?? DOWN_URL,
    SEARCH_URL: upstreams.search ?? DOWN_URL,
    DIP_URL: upstreams.dip ?? DOWN_URL,
    SHARING_URL: upstreams.sharing ?? DOWN_URL,
    NOTIFICATIONS_URL: upstreams.notifications ?? DOWN_URL,
    SHELL_URL: upstreams.shell ?? DOWN_URL,
    SEARCH_REMOTE_URL: DOWN_URL,
    DASHBOARD_REMOTE_URL: DOWN_URL,
    UPSTREAM_TIMEOUT_MS: '5000',
    ...opts.env,
  });
  const redis = await connectedRedis(opts.redisUrl);
  const app = buildGateway({ config, logger: silentLogger(), metrics: new ServiceMetrics('gateway'), redis });
  const listening = await listen(app);
  return {
    ...listening,
    app,
    config,
    redis,
    async close() {
      await listening.close();
      await redis.quit().catch(() => undefined);
    },
  };
}
