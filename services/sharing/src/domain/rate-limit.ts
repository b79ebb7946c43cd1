import type { Logger } from '@lsp/service-kit';
import type { Redis } from 'ioredis';

/**
 * Counts one call in the window's key and sets the key's expiry in the same step (a Lua script runs
 * atomically in Redis), then answers the count and the milliseconds the key has left. Counting and
 * expiring as two calls could lose the expiry (a dropped connection between them) and leave a counter
 * that never resets: one lost PEXPIRE locked the user out for good.
 */
const COUNT_IN_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type CountingRedis = Redis & {
  sharingCountInWindow(key: string, windowMs: number): Promise<[number, number]>;
};

function counting(redis: Redis): CountingRedis {
  const r = redis as CountingRedis;
  // Registered once per connection, so ioredis sends the script's SHA (EVALSHA) after the first call.
  if (typeof r.sharingCountInWindow !== 'function')
    redis.defineCommand('sharingCountInWindow', { numberOfKeys: 1, lua: COUNT_IN_WINDOW });
  return r;
}

/**
 * A fixed-window counter in Redis shared by every instance, as the gateway's limiter: the window's
 * number is part of the key (`{key}:{window}`), so even a counter that somehow kept no expiry stops
 * counting when its window ends, and the expiry is set atomically with the first count. If Redis does
 * not answer, the call is let through and the failure logged: a Redis outage must not stop people
 * sharing.
 */
export async function withinAllowance(
  redis: Redis,
  logger: Pick<Logger, 'warn'>,
  key: string,
  limit: number,
  windowMs: number,
  now: number = Date.now(),
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const window = Math.floor(now / windowMs);
  const windowKey = `${key}:${window}`;
  try {
    const [count, ttl] = (await counting(redis).sharingCountInWindow(windowKey, windowMs)).map(Number);
    if (count! <= limit) return { allowed: true, retryAfterSeconds: 0 };
    // The window's end bounds the wait, whatever the key's own expiry says.
    const windowLeft = (window + 1) * windowMs - now;
    const wait = Math.min(ttl! > 0 ? ttl! : windowMs, windowLeft);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
  } catch (err) {
    logger.warn({ err, key: windowKey }, 'rate limit check failed; letting the request through');
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
