import type { Logger } from '@lsp/service-kit';
import type { Redis } from 'ioredis';

/**
 * A fixed-window counter in Redis shared by every instance. If Redis does not answer the call is let
 * through and the failure logged: a Redis outage must not stop people sharing.
 */
export async function withinAllowance(
  redis: Redis,
  logger: Pick<Logger, 'warn'>,
  key: string,
  limit: number,
  windowMs: number,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  try {
    const count = await redis.incr(key);
    if (count === 1) await redis.pexpire(key, windowMs);
    if (count <= limit) return { allowed: true, retryAfterSeconds: 0 };
    const ttl = await redis.pttl(key);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((ttl > 0 ? ttl : windowMs) / 1000)) };
  } catch (err) {
    logger.warn({ err, key }, 'rate limit check failed; letting the request through');
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
