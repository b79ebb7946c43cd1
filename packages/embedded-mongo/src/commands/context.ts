// Shared state and helpers for command handlers.
import { BSON, Long, Timestamp } from 'bson';
import { errors } from '../errors';
import { ClusterClock, Ts } from './clock';
import type { FailPoints } from './failpoints';
import { Collection } from '../storage/collection';
import { Engine, Transaction } from '../storage/engine';
import { Doc, longToBigInt } from '../query/values';

export interface CursorState {
  ns: string;
  docs: Doc[];
  pos: number;
  lastUsed: number;
  sessionKey?: string;
}

export interface SessionState {
  txnNumber: bigint;
  txn?: Transaction;
  /** Reply to the session's last retryable write, returned again if the driver retries it. */
  lastRetryable?: { txnNumber: bigint; reply: Doc };
}

export interface ServerState {
  engine: Engine;
  replSet?: string;
  host: string;
  port: number;
  startedAt: Date;
  cursors: Map<bigint, CursorState>;
  sessions: Map<string, SessionState>;
  nextCursorId: bigint;
  /** Largest message a client may send; advertised in hello. */
  maxMessageSizeBytes: number;
  /** Replica-set mode: operationTime / $clusterTime of every reply. */
  clock: ClusterClock;
  /** `engine.changes` when the clock last ticked. */
  clockChanges: number;
  /** Test servers only (enableTestCommands): the failCommand fail point. */
  failPoints?: FailPoints;
  /** Each connection's client application name (hello), for failCommand's appName. */
  appNames: Map<number, string>;
  /** Sessions commands have named (MongoDB's logical session cache), for $listLocalSessions. */
  localSessions: Map<string, { id: unknown; lastUse: number }>;
  /**
   * MongoDB's transactionLifetimeLimitSeconds (default 60, settable by setParameter): a transaction
   * open longer is aborted by the housekeeping tick, freeing its locks.
   */
  transactionLifetimeLimitSeconds: number;
  /** Pinned snapshots of snapshot reads, by cluster time (`t:i`). */
  snapshots: Map<string, PinnedSnapshot>;
}

export interface PinnedSnapshot {
  ts: Ts;
  reader: Transaction;
  pinnedAt: number;
}

export interface CommandContext {
  state: ServerState;
  db: string;
  cmd: Doc;
  txn?: Transaction;
  /** readConcern snapshot outside a transaction: the pinned view reads come from. */
  snapshot?: Transaction;
  /** The cluster time of that view (atClusterTime of the reply). */
  snapshotTime?: Ts;
  sessionKey?: string;
  connectionId: number;
}

export type Handler = (ctx: CommandContext) => Doc;

export const DEFAULT_BATCH = 101;
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

export function collectionName(ctx: CommandContext, name: string): string {
  const v = ctx.cmd[name];
  if (typeof v !== 'string') throw errors.invalidNamespace(`collection name has invalid type ${typeof v}`);
  return v;
}

export function existing(ctx: CommandContext, name: string): Collection | undefined {
  return ctx.state.engine.getCollection(ctx.db, name, ctx.txn);
}

/** Replies with the first batch and keeps the rest as a server-side cursor. */
export function cursorReply(
  ctx: CommandContext,
  ns: string,
  docs: Doc[],
  batchSize: number | undefined,
  singleBatch = false,
): Doc {
  const size = batchSize === undefined || batchSize <= 0 ? DEFAULT_BATCH : batchSize;
  const first = takeBatch(docs, 0, batchSize === 0 ? 0 : size);
  let id = 0n;
  if (!singleBatch && first.length < docs.length) {
    id = ctx.state.nextCursorId++;
    ctx.state.cursors.set(id, {
      ns,
      docs,
      pos: first.length,
      sessionKey: ctx.sessionKey,
      lastUsed: Date.now(),
    });
  }
  const cursor: Doc = { firstBatch: first, id: Long.fromBigInt(id), ns };
  // A snapshot read tells the driver its time, which the session's next reads then ask for.
  if (ctx.snapshotTime) cursor.atClusterTime = snapshotTimestamp(ctx);
  return { cursor, ok: 1 };
}

export function snapshotTimestamp(ctx: CommandContext): Timestamp {
  return new Timestamp({ t: ctx.snapshotTime!.t, i: ctx.snapshotTime!.i });
}

export function takeBatch(docs: Doc[], from: number, size: number): Doc[] {
  // One document always fits a batch (it is at most 16 MiB): no need to measure it (findOne).
  if (size === 1 || from === docs.length - 1) return docs.slice(from, from + Math.min(size, 1));
  const out: Doc[] = [];
  let bytes = 0;
  for (let i = from; i < docs.length && out.length < size; i++) {
    bytes += BSON.calculateObjectSize(docs[i]);
    if (out.length > 0 && bytes > MAX_BATCH_BYTES) break;
    out.push(docs[i]);
  }
  return out;
}

export function toInt(v: unknown, fallback: number | undefined): number | undefined {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'number') return v;
  if (typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Long')
    return Number(longToBigInt(v as Long));
  return Number(v);
}
