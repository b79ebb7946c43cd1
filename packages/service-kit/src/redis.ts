import { Redis } from 'ioredis';

/**
 * Two kinds of Redis connection, per BullMQ's production guide: a producer connection fails fast
 * (no offline queue) so an API can answer 503 at once when Redis is down; a worker / blocking
 * connection waits for Redis to come back (maxRetriesPerRequest null).
 *
 * Every connection has an error listener: while Redis is down ioredis reports each failed reconnect
 * as an 'error' event, and without a listener it prints "Unhandled error event" with a stack trace
 * each time. The failures that matter reach the caller through its commands (a 503, a retried job)
 * and the health checks; `onError` is for the process's own log.
 */
export function createRedis(
  url: string,
  role: 'producer' | 'worker' = 'producer',
  onError: (err: Error) => void = () => undefined,
): Redis {
  const redis =
    role === 'producer'
      ? new Redis(url, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 2000,
          lazyConnect: false,
        })
      : new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  redis.on('error', onError);
  return redis;
}

export function redisHealthCheck(redis: Redis) {
  return { name: 'redis', check: async () => void (await redis.ping()) };
}

/** What ioredis rejects a command with when its Redis cannot be reached (not a bad command). */
const UNREACHABLE_MESSAGES = new Set([
  // A producer connection while disconnected: it keeps no offline queue.
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
  'Command timed out',
]);

/** True when a Redis command failed because Redis could not be reached. */
export function isRedisUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'MaxRetriesPerRequestError' || UNREACHABLE_MESSAGES.has(err.message);
}
