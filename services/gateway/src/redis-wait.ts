/**
 * The longest the gateway waits for Redis on a request's path (the session lookup, the rate-limit
 * count). A Redis that has stopped answering without closing its connections (a paused process, a
 * network partition) would otherwise hold each request until the client gives up; a connection that
 * is down fails at once anyway (the producer connection has no offline queue).
 */
export const REDIS_WAIT_MS = 1000;

export class RedisWaitExceeded extends Error {
  constructor(what: string, ms: number) {
    super(`${what}: Redis did not answer within ${ms} ms`);
    this.name = 'RedisWaitExceeded';
  }
}

/** `work`'s result, or a RedisWaitExceeded once `ms` have passed without one. */
export function withinRedisWait<T>(work: Promise<T>, what: string, ms = REDIS_WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisWaitExceeded(what, ms)), ms);
  });
  // The command may still answer later; its result (or failure) is then dropped.
  work.catch(() => undefined);
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}
