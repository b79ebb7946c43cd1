import type { AddressInfo } from 'node:net';
import { type GatewayConfig, buildGateway, gatewayConfigSchema } from '@lsp/gateway';
import { ServiceMetrics, createLogger, createRedis } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';

/** Secrets every in-process service and the gateway of one test share. */
export const TEST_SECRETS = {
  INTERNAL_SECRET: 'test-internal-secret-0123456789abcdef',
  COOKIE_SECRET: 'test-cookie-secret-0123456789abcdef0123456789',
} as const;

/** Nothing listens on port 9 of loopback: an upstream left unset behaves as a service that is down. */
export const DOWN_URL = 'http://127.0.0.1:9';

export const silentLogger = () => createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');

/**
 * A service's fail-fast producer connection (no offline queue), once it is ready: commands sent
 * before the connection is up would otherwise fail at once.
 */
export async function connectedRedis(url: string): Promise<Redis> {
  const redis = createRedis(url, 'producer');
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on a free loopback port. */
export async function listen(app: FastifyInstance): Promise<Listening> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, close: () => app.close() };
}

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
