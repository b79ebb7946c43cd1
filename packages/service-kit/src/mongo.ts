import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';
import { HttpError } from './errors';
import { isRedisUnreachable } from './redis';

/**
 * The longest a database call waits for a MongoDB server to send it to. While MongoDB is down a call
 * fails after this (and the request is answered 503, see `databaseUnavailable`) instead of the driver's
 * 30 s or the 10 s mongoose held calls for while disconnected.
 */
export const MONGO_SERVER_SELECTION_TIMEOUT_MS = 2000;
/** How long a starting service keeps trying to reach MongoDB before it gives up. */
export const MONGO_STARTUP_WAIT_MS = 30_000;

/**
 * Each service owns one database on the shared server (identity, search, dip, sharing,
 * notifications); the connection string may name a replica set, which transactions need. Calls are
 * never held while disconnected (`bufferCommands: false`): they go to the driver, which waits at most
 * MONGO_SERVER_SELECTION_TIMEOUT_MS for a server. At start the connection is tried again until
 * MONGO_STARTUP_WAIT_MS have passed.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  logger: Logger,
  startupWaitMs = MONGO_STARTUP_WAIT_MS,
): Promise<Connection> {
  const giveUpAt = Date.now() + startupWaitMs;
  for (;;) {
    const connection = mongoose.createConnection(url, {
      dbName,
      serverSelectionTimeoutMS: MONGO_SERVER_SELECTION_TIMEOUT_MS,
      maxPoolSize: 20,
      autoIndex: true,
      bufferCommands: false,
    });
    try {
      await connection.asPromise();
    } catch (err) {
      await connection.close().catch(() => undefined);
      if (Date.now() >= giveUpAt) throw err;
      logger.warn({ dbName, err }, 'MongoDB not reachable yet; trying again');
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    restPoolChecks(connection);
    connection.on('disconnected', () => logger.warn({ dbName }, 'MongoDB disconnected'));
    connection.on('reconnected', () => logger.info({ dbName }, 'MongoDB reconnected'));
    return connection;
  }
}

/** How often each pool checks its connections once `restPoolChecks` has set it. */
export const POOL_CHECK_INTERVAL_MS = 1000;

interface PoolHolder {
  pool?: { options: Readonly<Record<string, unknown>> };
}

/**
 * The driver checks each connection pool's minimum size every 100 ms, even with no minimum (then the
 * check only drops connections that perished): ten wake-ups a second in a process nobody uses, about
 * 2 ms of CPU a second on a small machine. No client option sets it (only the driver's own tests
 * do), so it is set on each pool the client opens, now and for servers discovered later. A
 * connection that perished is then dropped within a second instead of 100 ms; every call checks its
 * connection anyway. Should a driver upgrade move the pool, nothing breaks: the pools keep the
 * driver's 100 ms, and `mongo.int.test.ts` says so.
 */
export function restPoolChecks(connection: Connection): void {
  const client = connection.getClient();
  const slowDown = () => {
    const servers = (client as unknown as { topology?: { s?: { servers?: Map<string, PoolHolder> } } })
      .topology?.s?.servers;
    for (const server of servers?.values() ?? []) {
      const pool = server.pool;
      if (!pool || pool.options.minPoolSizeCheckFrequencyMS === POOL_CHECK_INTERVAL_MS) continue;
      pool.options = Object.freeze({ ...pool.options, minPoolSizeCheckFrequencyMS: POOL_CHECK_INTERVAL_MS });
    }
  };
  slowDown();
  // A server found later (a replica set member) gets its pool after this event.
  client.on('serverOpening', () => setImmediate(slowDown));
}

export function mongoHealthCheck(connection: Connection) {
  return {
    name: 'mongodb',
    check: async () => {
      if (!connection.db) throw new Error('not connected');
      await connection.db.admin().ping();
    },
  };
}

/** What a caller is told while the service cannot reach its database (MongoDB, or Redis). */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service cannot reach its database just now. Please try again in a few seconds.';
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The driver's and mongoose's errors that mean no MongoDB server could be reached, not a bad call. */
const UNREACHABLE_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

function isUnreachable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 3) return false;
  if (UNREACHABLE_ERRORS.has(err.name) || UNREACHABLE_ERRORS.has(err.constructor.name)) return true;
  // mongoose, without a connection and not holding calls: "... before initial connection is complete ..."
  if (
    err.name === 'MongooseError' &&
    /initial connection|buffering timed out|client was closed/i.test(err.message)
  )
    return true;
  return isUnreachable((err as { cause?: unknown }).cause, depth + 1);
}

/**
 * The 503 (with its Retry-After seconds) of a call that failed because MongoDB, or the service's
 * Redis, could not be reached; null for any other failure.
 */
export function databaseUnavailable(err: unknown): HttpError | null {
  if (!isUnreachable(err) && !isRedisUnreachable(err)) return null;
  return new HttpError(503, DATABASE_UNAVAILABLE_MESSAGE, {
    retryAfterSeconds: DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  });
}
