// What every in-process service of a test shares: the secrets, a silent logger, a ready Redis
// connection, a free port. The real gateway in front of them is the gateway's own (`@lsp/gateway/testing`).
import type { AddressInfo } from 'node:net';
import { createLogger, createRedis } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';

/** Secrets every in-process service and the gateway of one test share. */
export const TEST_SECRETS = {
  INTERNAL_SECRET: 'test-internal-secret-0123456789abcdef',
  COOKIE_SECRET: 'test-cookie-secret-0123456789abcdef0123456789',
  METRICS_TOKEN: 'test-metrics-token-0123456789abcdef',
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
/** Listens on loopback: on `port` (from `freePort()`, for services that must know each other's address first), or any free one. */
export async function listen(app: FastifyInstance, port = 0): Promise<Listening> {
  await app.listen({ host: '127.0.0.1', port });
  const bound = (app.server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${bound}`, port: bound, close: () => app.close() };
}
