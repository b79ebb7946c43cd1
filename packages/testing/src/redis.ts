import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export interface TestRedis {
  /** A redis:// URL naming the leased database number: hand it to services, queues and the bus. */
  url: string;
  db: number;
  /** A connection to the leased database, for assertions. */
  redis: Redis;
  /** Empties the leased database, releases the lease and closes the connection. */
  release(): Promise<void>;
}

/** Databases 1-14 are leased to test files and browser-test stacks; 0 stays for `npm start`. */
const FIRST_DB = 1;
const LAST_DB = 14;
const LEASE_SECONDS = 300;
const leaseKey = (db: number) => `lsp-test:redis-db-lease:${db}`;

/**
 * A Redis database of its own for one test file. Services use fixed key names (`session:<id>`,
 * BullMQ's `bull:email:*`), so isolation by key prefix would need every one of them configurable;
 * a leased database number isolates everything at once. The lease lives in database 0 and is
 * renewed while held, so parallel test runs on one Redis never flush each other's data.
 */
export async function leaseRedisDb(
  baseUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<TestRedis> {
  const root = new URL(baseUrl);
  root.pathname = '/0';
  const control = new Redis(root.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await control.connect();
  const token = randomBytes(8).toString('hex');
  let db = -1;
  try {
    for (let attempt = 0; db < 0 && attempt < 200; attempt++) {
      for (let candidate = FIRST_DB; candidate <= LAST_DB; candidate++) {
        if ((await control.set(leaseKey(candidate), token, 'EX', LEASE_SECONDS, 'NX')) === 'OK') {
          db = candidate;
          break;
        }
      }
      if (db < 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (err) {
    await control.quit();
    throw err;
  }
  if (db < 0) {
    await control.quit();
    throw new Error(`no free Redis test database among ${FIRST_DB}-${LAST_DB}`);
  }
  const renew = setInterval(() => {
    void control.expire(leaseKey(db), LEASE_SECONDS).catch(() => undefined);
  }, 30_000);
  renew.unref();

  const url = new URL(baseUrl);
  url.pathname = `/${db}`;
  const redis = new Redis(url.toString(), { lazyConnect: true });
  await redis.connect();
  // A run that crashed may have left keys behind in this database.
  await redis.flushdb();
  return {
    url: url.toString(),
    db,
    redis,
    async release() {
      clearInterval(renew);
      await redis.flushdb().catch(() => undefined);
      await redis.quit().catch(() => undefined);
      // Only our own lease is released, even if it expired and someone else took it.
      await control
        .eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
          1,
          leaseKey(db),
          token,
        )
        .catch(() => undefined);
      await control.quit().catch(() => undefined);
    },
  };
}
