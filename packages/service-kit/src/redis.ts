import { Redis } from 'ioredis';

/**
 * Two kinds of Redis connection, per BullMQ's production guide: a producer connection fails fast
 * (no offline queue) so an API can answer 503 at once when Redis is down; a worker / blocking
 * connection waits for Redis to come back (maxRetriesPerRequest null).
 */
export function createRedis(url: string, role: 'producer' | 'worker' = 'producer'): Redis {
  return role === 'producer'
    ? new Redis(url, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 2000,
        lazyConnect: false,
      })
    : new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

export function redisHealthCheck(redis: Redis) {
  return { name: 'redis', check: async () => void (await redis.ping()) };
}
