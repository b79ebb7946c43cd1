// Command dispatch: finds the handler, attaches the session's transaction, turns exceptions into
// MongoDB error replies and journals the command's changes before the reply leaves.
import { Long } from 'bson';
import { MongoServerError, errors, fromExpressionError } from '../errors';
import { collatorFor, withCollation } from '../query/collation';
import { parseLet, withVariables } from '../query/expression';
import { Doc, isPlainObject, longToBigInt } from '../query/values';
import { adminCommands } from './admin';
import { asTs, compareTs, formatTs } from './clock';
import { FAIL_ACTION, FailAction, errorLabelsFor, failReply } from './failpoints';
import {
  CommandContext,
  Handler,
  PinnedSnapshot,
  ServerState,
  SessionState,
  existing,
  toInt,
} from './context';
import { crudCommands } from './crud';
import { checkStrictCommandFields } from './fields';
import type { GossipedTime } from '../wire/messages';
import { handshakeCommands, sessionKeyOf } from './handshake';

// A Map, not a plain object: the command name is whatever the client sent, and indexing an object
// with it would also find inherited members (`constructor`, `toString`, `__proto__`...) and call them.
const handlers = new Map<string, Handler>(
  Object.entries({ ...handshakeCommands, ...adminCommands, ...crudCommands }),
);
const lowerCase = new Map([...handlers].map(([k, h]) => [k.toLowerCase(), h]));

// Commands that may not run inside a multi-document transaction.
const NOT_IN_TXN = new Set([
  'count',
  'listCollections',
  'listIndexes',
  'collMod',
  'drop',
  'dropDatabase',
  'dropIndexes',
  'renameCollection',
  'listDatabases',
]);

// Commands that wait for their write concern (and so can answer a writeConcernError).
const WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'create',
  'drop',
  'dropDatabase',
  'createIndexes',
  'dropIndexes',
  'deleteIndexes',
  'renameCollection',
  'collMod',
  'commitTransaction',
  'abortTransaction',
]);

/** Parses `writeConcern` as MongoDB does before running the command (nothing is written on error). */
function checkWriteConcern(wc: unknown, inTxn: boolean, name: string): void {
  if (wc === undefined) return;
  if (inTxn && name !== 'commitTransaction' && name !== 'abortTransaction')
    throw errors.invalidOptions('Cannot set write concern after starting a transaction.');
  if (!isPlainObject(wc))
    throw errors.typeMismatch("BSON field 'writeConcern' is the wrong type, expected type 'object'");
  const w = wc.w;
  if (w === undefined || typeof w === 'string') return;
  const n = toInt(w, undefined);
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw errors.failedToParse('w has to be a number or a string');
  if (n < 0 || n > 50)
    throw errors.failedToParse(`w has to be a non-negative number and not greater than 50; found: ${n}`);
}

/**
 * What MongoDB answers after the write when the write concern cannot be met: the write is applied
 * and stays applied (it is on the primary), and the reply carries a writeConcernError.
 */
function writeConcernError(state: ServerState, wc: unknown): Doc | undefined {
  if (!state.replSet || !isPlainObject(wc)) return undefined;
  const w = wc.w;
  if (typeof w === 'string') {
    if (w === 'majority') return undefined;
    return {
      code: 79,
      codeName: 'UnknownReplWriteConcern',
      errmsg: `No write concern mode named '${w}' found in replica set configuration`,
      errInfo: { writeConcern: { ...wc, provenance: 'clientSupplied' } },
    };
  }
  const n = toInt(w, 1)!;
  if (n <= 1) return undefined;
  return {
    code: 100,
    codeName: 'UnsatisfiableWriteConcern',
    errmsg: 'Not enough data-bearing nodes',
    errInfo: { writeConcern: { ...wc, provenance: 'clientSupplied' } },
  };
}

// Commands whose top-level `collation` applies to the whole command (update and delete carry it
// per statement).
const COLLATION_COMMANDS = new Set([
  'find',
  'count',
  'distinct',
  'aggregate',
  'findAndModify',
  'findandmodify',
]);
// Commands with `let` variables (MongoDB 5.0+).
const LET_COMMANDS = new Set(['find', 'aggregate', 'update', 'delete', 'findAndModify', 'findandmodify']);

function txnNumberOf(v: unknown): bigint | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && (v as Long)._bsontype === 'Long') return longToBigInt(v as Long);
  return BigInt(Number(v));
}

/** `gossiped`: the time of the command's `$clusterTime` when the wire layer read it (and cut it out). */
export function runCommand(
  state: ServerState,
  cmd: Doc,
  defaultDb: string,
  connectionId: number,
  gossiped?: GossipedTime,
): Doc {
  if (state.failPoints) return withFailPoint(state, cmd, defaultDb, connectionId, gossiped);
  return stamped(state, cmd, defaultDb, connectionId, gossiped);
}

/** Test servers only: a failCommand fail point may answer, close, delay or decorate the command. */
function withFailPoint(
  state: ServerState,
  cmd: Doc,
  defaultDb: string,
  connectionId: number,
  gossiped: GossipedTime | undefined,
): Doc {
  const name = Object.keys(cmd)[0] ?? '';
  const lower = name.toLowerCase();
  if (lower === 'hello' || lower === 'ismaster') {
    const app = (cmd.client as { application?: { name?: unknown } } | undefined)?.application?.name;
    if (typeof app === 'string') state.appNames.set(connectionId, app);
  }
  if (name === 'configureFailPoint' && state.failPoints) {
    const reply = (() => {
      try {
        return state.failPoints!.configure(cmd);
      } catch (err) {
        return err instanceof MongoServerError ? err.toReply() : { ok: 0, errmsg: String(err), code: 1 };
      }
    })();
    if (state.replSet) state.clock.stamp(reply);
    return reply;
  }
  const data = state.failPoints!.fires(name, state.appNames.get(connectionId));
  if (!data) return stamped(state, cmd, defaultDb, connectionId, gossiped);
  const action: FailAction = {};
  if (data.blockConnection === true) action.delayMs = Math.max(0, toInt(data.blockTimeMS, 0)!);
  const txnNumber = cmd.txnNumber !== undefined;
  const inTxn = txnNumber && cmd.autocommit === false;
  const labelCtx = { name, retryableWrite: txnNumber && !inTxn && WRITE_COMMANDS.has(name), inTxn };
  let reply: Doc;
  if (data.closeConnection === true) {
    reply = { ok: 0 };
    action.close = true;
  } else if (data.errorCode !== undefined) {
    // An error code wins over a writeConcernError, as in MongoDB's failCommand.
    const code = toInt(data.errorCode, 1)!;
    reply = failReply(data, code, errorLabelsFor(data, { code }, labelCtx));
    if (state.replSet) state.clock.stamp(reply);
  } else {
    reply = stamped(state, cmd, defaultDb, connectionId, gossiped);
    if (isPlainObject(data.writeConcernError)) {
      reply.writeConcernError = data.writeConcernError;
      const writeConcernCode = toInt(data.writeConcernError.code, 0)!;
      const labels = errorLabelsFor(data, { writeConcernCode }, labelCtx);
      if (labels.length > 0) reply.errorLabels = labels;
    }
  }
  (reply as Record<symbol, unknown>)[FAIL_ACTION] = action;
  return reply;
}

function stamped(
  state: ServerState,
  cmd: Doc,
  defaultDb: string,
  connectionId: number,
  gossiped: GossipedTime | undefined,
): Doc {
  if (!state.replSet) return execute(state, cmd, defaultDb, connectionId);
  if (gossiped) state.clock.advance(gossiped);
  else if (cmd.$clusterTime !== undefined) state.clock.gossip(cmd.$clusterTime);
  // Changes made between commands (the TTL sweep) get their time before anything reads them.
  syncClock(state);
  const reply = execute(state, cmd, defaultDb, connectionId);
  // Anything this command changed is a new cluster time.
  syncClock(state);
  state.clock.stamp(reply);
  return reply;
}

function syncClock(state: ServerState): void {
  if (state.engine.changes !== state.clockChanges) {
    state.clockChanges = state.engine.changes;
    state.clock.tick();
  }
}

// Commands that may read at readConcern snapshot outside a transaction (MongoDB 5.0+).
const SNAPSHOT_READS = new Set(['find', 'aggregate', 'distinct']);
// How long a snapshot stays readable at its atClusterTime: MongoDB's minSnapshotHistoryWindowInSeconds.
const SNAPSHOT_WINDOW_MS = 300_000;
const READ_CONCERN_LEVELS = new Set(['local', 'available', 'majority', 'linearizable', 'snapshot']);

/** readConcern: its level and afterClusterTime / atClusterTime, checked as MongoDB does. */
function applyReadConcern(ctx: CommandContext, name: string, inTxn: boolean): void {
  const { state, cmd } = ctx;
  const rc = cmd.readConcern;
  if (rc === undefined) return;
  if (!isPlainObject(rc))
    throw errors.typeMismatch("BSON field 'readConcern' is the wrong type, expected type 'object'");
  const level = rc.level;
  if (level !== undefined && (typeof level !== 'string' || !READ_CONCERN_LEVELS.has(level)))
    throw errors.failedToParse(`Read concern level '${String(level)}' is not valid`);
  if (rc.atClusterTime !== undefined && level !== 'snapshot')
    throw errors.invalidOptions('readConcern atClusterTime is only valid in combination with level snapshot');
  if (rc.afterClusterTime !== undefined && rc.atClusterTime !== undefined)
    throw errors.invalidOptions(
      'Specifying a timestamp for readConcern snapshot in a causally consistent session is not allowed',
    );
  if (rc.afterClusterTime !== undefined) {
    if (!state.replSet)
      throw errors.illegalOperation(
        'Cannot specify afterClusterTime readConcern without replication enabled',
      );
    state.clock.waitFor(rc.afterClusterTime);
  }
  if (level !== 'snapshot') return;
  if (inTxn) {
    // startTransaction at a given atClusterTime: the transaction reads as of that snapshot.
    if (rc.atClusterTime !== undefined && cmd.startTransaction === true)
      ctx.snapshot = pinSnapshot(state, rc.atClusterTime).reader;
    return;
  }
  if (!state.replSet)
    throw errors.illegalOperation('readConcern level snapshot is only supported on replica set members');
  if (!SNAPSHOT_READS.has(name))
    throw errors.invalidOptions(
      `Command ${name} does not support { readConcern: { level: "snapshot" } } outside a multi-document transaction`,
    );
  const pinned = pinSnapshot(state, rc.atClusterTime);
  ctx.snapshot = pinned.reader;
  ctx.snapshotTime = pinned.ts;
}

/**
 * The view a snapshot read reads from: at `atClusterTime` when given (one this server handed out
 * and still holds, or the present if nothing was written since), else the present, pinned so the
 * session's next reads at the same atClusterTime see exactly the same data.
 */
function pinSnapshot(state: ServerState, at: unknown): PinnedSnapshot {
  const now = Date.now();
  for (const [key, pin] of state.snapshots) {
    if (now - pin.pinnedAt <= SNAPSHOT_WINDOW_MS) continue;
    state.engine.closeReader(pin.reader);
    state.snapshots.delete(key);
  }
  let ts = state.clock.lastApplied;
  if (at !== undefined) {
    const wanted = asTs(at);
    if (!wanted)
      throw errors.typeMismatch(
        "BSON field 'readConcern.atClusterTime' is the wrong type, expected type 'timestamp'",
      );
    const held = state.snapshots.get(`${wanted.t}:${wanted.i}`);
    if (held) return held;
    state.clock.refuseFuture(wanted, 'atClusterTime');
    if (compareTs(wanted, ts) < 0)
      throw new MongoServerError(
        239,
        'SnapshotTooOld',
        `Read timestamp ${formatTs(wanted)} is older than the oldest available timestamp.`,
      );
    if (compareTs(wanted, ts) > 0) ts = state.clock.tick();
    ts = wanted;
  }
  const key = `${ts.t}:${ts.i}`;
  let pin = state.snapshots.get(key);
  if (!pin) {
    pin = { ts: { ...ts }, reader: state.engine.openReader(), pinnedAt: now };
    state.snapshots.set(key, pin);
  }
  return pin;
}

function execute(state: ServerState, cmd: Doc, defaultDb: string, connectionId: number): Doc {
  const name = Object.keys(cmd)[0];
  const db = typeof cmd.$db === 'string' ? cmd.$db : defaultDb;
  const ctx: CommandContext = { state, db, cmd, connectionId };
  try {
    if (!name) throw errors.failedToParse('empty command');
    // MongoDB parses the command with its IDL before anything else happens: an unknown field of a
    // strict command is 40415 and nothing runs (commit/abort included).
    checkStrictCommandFields(name, cmd);
    const handler = handlers.get(name) ?? lowerCase.get(name.toLowerCase());
    const txnNumber = txnNumberOf(cmd.txnNumber);
    const inTxn = txnNumber !== undefined && cmd.autocommit === false;
    checkWriteConcern(cmd.writeConcern, inTxn, name);
    if (handler) applyReadConcern(ctx, name, inTxn);
    if (name === 'commitTransaction' || name === 'abortTransaction')
      return withWriteConcern(state, cmd, finishTransaction(ctx, name, txnNumber));
    if (inTxn) attachTransaction(ctx, name, txnNumber);
    else if (txnNumber !== undefined && !state.replSet) {
      throw errors.illegalOperation('Transaction numbers are only allowed on a replica set member or mongos');
    }
    if (!handler) throw errors.commandNotFound(name);
    ctx.sessionKey = sessionKeyOf(cmd.lsid);
    // The logical session cache ($listLocalSessions): every session a command names, last use.
    if (ctx.sessionKey !== undefined && name !== 'endSessions') {
      const known = state.localSessions.get(ctx.sessionKey);
      if (known) known.lastUse = Date.now();
      else
        state.localSessions.set(ctx.sessionKey, {
          id: (cmd.lsid as { id: unknown }).id,
          lastUse: Date.now(),
        });
    }
    const retryable =
      !inTxn && txnNumber !== undefined && ctx.sessionKey !== undefined
        ? retryableSession(state, ctx.sessionKey)
        : undefined;
    if (retryable?.lastRetryable && retryable.lastRetryable.txnNumber === txnNumber)
      return retryable.lastRetryable.reply;
    const reply = runHandler(ctx, name, handler);
    if (WRITE_COMMANDS.has(name)) withWriteConcern(state, cmd, reply);
    if (ctx.txn && Array.isArray(reply.writeErrors) && reply.writeErrors.length > 0)
      state.engine.abort(ctx.txn);
    state.engine.flush();
    // Remembered only once journaled: a retry of a write refused for a full disk must run again,
    // not be answered with a success that never reached the disk.
    if (retryable && txnNumber !== undefined) retryable.lastRetryable = { txnNumber, reply };
    return reply;
  } catch (err) {
    if (ctx.txn) state.engine.abort(ctx.txn);
    try {
      state.engine.flush();
    } catch {
      // The original error is the one the client needs.
    }
    if (err instanceof MongoServerError) return err.toReply();
    const known = fromExpressionError(err);
    if (known) return known.toReply();
    return {
      ok: 0,
      errmsg: err instanceof Error ? err.message : String(err),
      code: 1,
      codeName: 'InternalError',
    };
  }
}

/**
 * The handler, inside the command's collation (its own, else its collection's default) and `let`
 * variables when it has them.
 */
function runHandler(ctx: CommandContext, name: string, handler: Handler): Doc {
  const { cmd } = ctx;
  const collationCommand = COLLATION_COMMANDS.has(name);
  let collated = cmd.collation !== undefined && collationCommand;
  let collator = collated ? collatorFor(cmd.collation) : undefined;
  if (!collated && collationCommand && typeof cmd[name] === 'string') {
    collator = existing(ctx, cmd[name])?.collator;
    collated = collator !== undefined;
  }
  const withLet = cmd.let !== undefined && LET_COMMANDS.has(name);
  // The common case calls the handler directly: no closures per command.
  if (!collated && !withLet) return handler(ctx);
  const vars = withLet ? parseLet(cmd.let, 'let') : undefined;
  const inner = vars ? () => withVariables(vars, () => handler(ctx)) : () => handler(ctx);
  return collated ? withCollation(collator, inner) : inner();
}

function withWriteConcern(state: ServerState, cmd: Doc, reply: Doc): Doc {
  if (cmd.writeConcern === undefined) return reply;
  const problem = writeConcernError(state, cmd.writeConcern);
  if (problem) reply.writeConcernError = problem;
  return reply;
}

function retryableSession(state: ServerState, key: string): SessionState {
  let session = state.sessions.get(key);
  if (!session) {
    session = { txnNumber: -1n };
    state.sessions.set(key, session);
  }
  return session;
}

function attachTransaction(ctx: CommandContext, name: string, txnNumber: bigint): void {
  const { state, cmd } = ctx;
  if (!state.replSet)
    throw errors.illegalOperation('Transaction numbers are only allowed on a replica set member or mongos');
  const key = sessionKeyOf(cmd.lsid);
  if (!key) throw errors.invalidOptions('a transaction requires a session id');
  let session = state.sessions.get(key);
  if (cmd.startTransaction === true) {
    if (session && session.txnNumber > txnNumber) {
      throw new MongoServerError(
        225,
        'TransactionTooOld',
        `Cannot start transaction ${txnNumber} on session because a newer transaction ${session.txnNumber} has already started`,
      );
    }
    if (session?.txn) state.engine.abort(session.txn);
    const txn = ctx.snapshot
      ? state.engine.beginAt(key, txnNumber, ctx.snapshot)
      : state.engine.begin(key, txnNumber);
    session = { txnNumber, txn };
    state.sessions.set(key, session);
  }
  if (!session || session.txnNumber !== txnNumber || !session.txn || session.txn.state !== 'active') {
    if (session?.txn?.state === 'committed' && session.txnNumber === txnNumber)
      throw errors.transactionCommitted(txnNumber);
    throw errors.noSuchTransaction(txnNumber);
  }
  if (NOT_IN_TXN.has(name))
    throw errors.operationNotSupportedInTransaction(`Cannot run '${name}' in a multi-document transaction.`);
  ctx.txn = session.txn;
}

function finishTransaction(ctx: CommandContext, name: string, txnNumber: bigint | undefined): Doc {
  const { state, cmd } = ctx;
  if (!state.replSet)
    throw errors.illegalOperation('Transaction numbers are only allowed on a replica set member or mongos');
  const key = sessionKeyOf(cmd.lsid);
  const session = key ? state.sessions.get(key) : undefined;
  if (txnNumber === undefined || !session || session.txnNumber !== txnNumber || !session.txn) {
    throw errors.noSuchTransaction(txnNumber ?? 0n);
  }
  const txn = session.txn;
  if (name === 'abortTransaction') {
    if (txn.state === 'committed') throw errors.transactionCommitted(txnNumber);
    if (txn.state === 'aborted') throw errors.noSuchTransaction(txnNumber);
    state.engine.abort(txn);
    return { ok: 1 };
  }
  if (txn.state === 'committed') return { ok: 1 };
  if (txn.state === 'aborted') throw errors.noSuchTransaction(txnNumber);
  state.engine.commit(txn);
  state.engine.flush();
  return { ok: 1 };
}
