// startEmbeddedMongo: opens the storage, listens, runs the TTL sweep, and stops cleanly.
import net from 'node:net';
import { runCommand } from './commands';
import { ClusterClock } from './commands/clock';
import { FailPoints } from './commands/failpoints';
import { ServerState } from './commands/context';
import { Doc } from './query/values';
import { Engine } from './storage/engine';
import { FsyncPolicy } from './storage/journal';
import { serveConnection } from './wire/connection';
import { MAX_MESSAGE_SIZE } from './wire/messages';

// MongoDB's default transactionLifetimeLimitSeconds: an abandoned transaction must not pin
// old document versions (or write locks) forever.
const DEFAULT_TRANSACTION_LIFETIME_SECONDS = 60;
// MongoDB's default cursorTimeoutMillis: cursors a client never exhausts or kills are freed.
const CURSOR_IDLE_MS = 10 * 60_000;
// Far more than the services of one machine open (service-kit's pools hold at most 20 each), and
// few enough that the server's memory and file descriptors survive a client that opens sockets
// in a loop.
export const DEFAULT_MAX_CONNECTIONS = 1000;
// MongoDB's own floor: one maximum-size document (16 MiB) plus 16 KiB of command envelope.
const MIN_MESSAGE_SIZE_LIMIT = 16 * 1024 * 1024 + 16 * 1024;

export interface EmbeddedMongoOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  host?: string;
  /** Directory for the journal and snapshot; omit for a purely in-memory server. */
  dbPath?: string;
  /** Replica-set name: enables transactions and replica-set hello replies. */
  replSet?: string;
  fsync?: FsyncPolicy;
  fsyncIntervalMs?: number;
  compactBytes?: number;
  ttlIntervalMs?: number;
  /** Open connections beyond which new ones are closed at once (default 1,000). */
  maxConnections?: number;
  /**
   * Largest message a client may send, in bytes (default MongoDB's 48,000,000); a connection that
   * announces more is closed. Advertised to drivers in hello as maxMessageSizeBytes.
   */
  maxMessageSizeBytes?: number;
  /**
   * Test commands (mongod's enableTestCommands): `configureFailPoint` with the failCommand fail
   * point. Off by default, and never set by `npm start`; without it the command does not exist.
   */
  enableTestCommands?: boolean;
  /**
   * How long a transaction may stay open before the server aborts it (MongoDB's
   * transactionLifetimeLimitSeconds, default 60; also settable at run time with setParameter).
   */
  transactionLifetimeLimitSeconds?: number;
  /** The clock transaction lifetimes are measured by; defaults to Date.now (tests inject one). */
  now?: () => number;
  log?: (msg: string) => void;
  /**
   * Faults the person running the server must act on or know about (disk full, damaged journal,
   * data folder created or deleted); defaults to `log`. The CLI writes these to stderr.
   */
  warn?: (msg: string) => void;
}

export interface EmbeddedMongo {
  uri: string;
  port: number;
  host: string;
  stop(): Promise<void>;
}

export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const maxMessageSizeBytes = options.maxMessageSizeBytes ?? MAX_MESSAGE_SIZE;
  if (!Number.isInteger(maxConnections) || maxConnections < 1)
    throw new Error(`maxConnections must be a positive integer, not ${maxConnections}`);
  // A message must fit at least one maximum-size document plus its envelope, or drivers fail.
  if (!Number.isInteger(maxMessageSizeBytes) || maxMessageSizeBytes < MIN_MESSAGE_SIZE_LIMIT)
    throw new Error(`maxMessageSizeBytes must be an integer of at least ${MIN_MESSAGE_SIZE_LIMIT}`);
  const engine = new Engine({
    dbPath: options.dbPath,
    fsync: options.fsync,
    fsyncIntervalMs: options.fsyncIntervalMs,
    compactBytes: options.compactBytes,
    log,
    warn: options.warn,
    now: options.now,
  });
  const opened = engine.open();
  if (opened.replayed > 0) log(`recovered ${opened.replayed} journal records`);

  const state: ServerState = {
    engine,
    replSet: options.replSet,
    // Clients must be told an address they can dial, not the wildcard the server listens on.
    host: host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host,
    port: options.port ?? 27017,
    startedAt: new Date(),
    cursors: new Map(),
    sessions: new Map(),
    nextCursorId: BigInt(Date.now()) * 1000n,
    maxMessageSizeBytes,
    clock: new ClusterClock(),
    clockChanges: engine.changes,
    snapshots: new Map(),
    failPoints: options.enableTestCommands ? new FailPoints() : undefined,
    appNames: new Map(),
    localSessions: new Map(),
    transactionLifetimeLimitSeconds:
      options.transactionLifetimeLimitSeconds ?? DEFAULT_TRANSACTION_LIFETIME_SECONDS,
  };

  const sockets = new Set<net.Socket>();
  let connectionIds = 0;
  // Logged once per period at the limit, not once per refused socket (a flood would flood the log).
  let atLimit = false;
  const server = net.createServer((socket) => {
    if (sockets.size >= maxConnections) {
      if (!atLimit) log(`refusing connections: ${maxConnections} already open (maxConnections)`);
      atLimit = true;
      socket.destroy();
      return;
    }
    atLimit = false;
    sockets.add(socket);
    const connectionId = ++connectionIds;
    socket.on('close', () => {
      sockets.delete(socket);
      state.appNames.delete(connectionId);
    });
    serveConnection(
      socket,
      connectionId,
      (cmd, db, id, gossiped) => runCommand(state, cmd as Doc, db, id, gossiped),
      (err) => log(`connection error: ${String(err)}`),
      { maxMessageSizeBytes },
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 27017, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    engine.close();
    throw err;
  }
  const port = (server.address() as net.AddressInfo).port;
  state.port = port;

  const ttl = setInterval(() => {
    try {
      engine.checkDataDir();
      sweepExpired(state);
      engine.expireTransactions(state.transactionLifetimeLimitSeconds * 1000);
      const idleSince = Date.now() - CURSOR_IDLE_MS;
      for (const [id, cursor] of state.cursors) if (cursor.lastUsed < idleSince) state.cursors.delete(id);
      // logicalSessionTimeoutMinutes (30, advertised in hello): idle sessions leave the cache.
      const sessionIdleSince = Date.now() - 30 * 60_000;
      for (const [key, s] of state.localSessions)
        if (s.lastUse < sessionIdleSince) state.localSessions.delete(key);
    } catch (err) {
      // Housekeeping must never take the server down; the next tick tries again. A disk fault
      // was already reported once by the engine, and would otherwise be repeated every second.
      if (!engine.diskFault) log(`housekeeping failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }, options.ttlIntervalMs ?? 1000);
  ttl.unref();

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= new Promise<void>((resolve) => {
      clearInterval(ttl);
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }).then(() => engine.close());
    return stopped;
  };

  const query = options.replSet ? `?replicaSet=${encodeURIComponent(options.replSet)}` : '';
  return { uri: `mongodb://${state.host}:${port}/${query}`, port, host: state.host, stop };
}

/** Deletes documents whose TTL-indexed date is older than expireAfterSeconds. */
export function sweepExpired(state: ServerState): void {
  const now = Date.now();
  try {
    for (const colls of state.engine.dbs.values()) {
      for (const coll of colls.values()) {
        for (const index of coll.indexes) {
          const ttl = index.spec.expireAfterSeconds;
          if (typeof ttl !== 'number' || index.fields.length !== 1) continue;
          // Index keys of dates are 'd<epoch ms>': the index already lists every date the field
          // holds (each array element too), so expired documents are found without walking them.
          const expiredIds = new Set<string>();
          for (const [key, ids] of index.entries) {
            if (key.charCodeAt(0) !== 100 /* 'd' */) continue;
            if (Number(key.slice(1)) + ttl * 1000 <= now) for (const id of ids) expiredIds.add(id);
          }
          for (const id of expiredIds) {
            const doc = coll.docs.get(id);
            if (doc) state.engine.delete(coll, doc);
          }
        }
      }
    }
  } finally {
    state.engine.flush();
  }
}
