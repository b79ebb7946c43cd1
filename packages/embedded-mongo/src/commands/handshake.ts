// hello/ismaster and the small diagnostic commands drivers and shells send.
import { Long, ObjectId, Timestamp } from 'bson';
import { MongoServerError, errors } from '../errors';
import { CommandContext, Handler, toInt } from './context';
import { isGenericField } from './fields';
import { Doc } from '../query/values';

// A fixed election id: a single node never changes primary.
const ELECTION_ID = new ObjectId('7fffffff0000000000000001');

export function helloReply(ctx: CommandContext, legacy: boolean): Doc {
  const { state } = ctx;
  const reply: Doc = {
    helloOk: true,
    isWritablePrimary: true,
    ismaster: true,
    maxBsonObjectSize: 16777216,
    maxMessageSizeBytes: state.maxMessageSizeBytes,
    maxWriteBatchSize: 100000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
  };
  if (legacy) delete reply.isWritablePrimary;
  else delete reply.ismaster;
  if (state.replSet) {
    const me = `${state.host}:${state.port}`;
    Object.assign(reply, {
      setName: state.replSet,
      setVersion: 1,
      hosts: [me],
      primary: me,
      me,
      secondary: false,
      electionId: ELECTION_ID,
      lastWrite: {
        opTime: { ts: Timestamp.fromBits(0, Math.floor(Date.now() / 1000)), t: Long.fromNumber(1) },
        lastWriteDate: new Date(),
      },
    });
  }
  reply.ok = 1;
  return reply;
}

const buildInfo: Handler = () => ({
  version: '7.0.0',
  gitVersion: 'embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16777216,
  storageEngines: ['embedded'],
  javascriptEngine: 'none',
  modules: [],
  ok: 1,
});

const getParameter: Handler = (ctx) => {
  const known: Doc = {
    featureCompatibilityVersion: { version: '7.0' },
    authenticationMechanisms: [],
    transactionLifetimeLimitSeconds: ctx.state.transactionLifetimeLimitSeconds,
  };
  const out: Doc = {};
  // Own keys only: `k in known` would also answer `constructor`, `toString`... from the prototype.
  for (const k of Object.keys(ctx.cmd)) if (Object.hasOwn(known, k)) out[k] = known[k];
  if (ctx.cmd.getParameter === '*') Object.assign(out, known);
  return { ...out, ok: 1 };
};

// Parameters setParameter may change at run time; every other one is refused as not supported.
const SETTABLE_PARAMETERS = new Set(['transactionLifetimeLimitSeconds']);

const setParameter: Handler = (ctx) => {
  if (ctx.db !== 'admin')
    throw new MongoServerError(
      13,
      'Unauthorized',
      'setParameter may only be run against the admin database.',
    );
  const changes = Object.keys(ctx.cmd).filter((k) => k !== 'setParameter' && !isGenericField(k));
  if (changes.length === 0) throw errors.badValue('no option found to set, use help:true to see options ');
  for (const name of changes)
    if (!SETTABLE_PARAMETERS.has(name)) throw errors.notSupported(`setParameter ${name}`);
  const value = toInt(ctx.cmd.transactionLifetimeLimitSeconds, undefined);
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw errors.badValue(
      `Invalid value for parameter transactionLifetimeLimitSeconds: ${String(ctx.cmd.transactionLifetimeLimitSeconds)} is not an integer`,
    );
  if (value < 1)
    throw errors.badValue(
      `Invalid value for parameter transactionLifetimeLimitSeconds: ${value} is not greater than or equal to 1`,
    );
  const was = ctx.state.transactionLifetimeLimitSeconds;
  ctx.state.transactionLifetimeLimitSeconds = value;
  return { was, ok: 1 };
};

/**
 * Ends what the sessions are doing, as MongoDB's killSessions / killAllSessions do: their open
 * transactions are aborted (releasing the documents they hold) and their cursors closed. The
 * sessions stay known; a later command of an aborted transaction is 251 NoSuchTransaction.
 */
function killSessionsWhere(ctx: CommandContext, isKilled: (sessionKey: string) => boolean): Doc {
  ctx.state.engine.abortSessions(isKilled);
  for (const [id, cursor] of ctx.state.cursors)
    if (cursor.sessionKey !== undefined && isKilled(cursor.sessionKey)) ctx.state.cursors.delete(id);
  return { ok: 1 };
}

const killSessions: Handler = (ctx) => {
  const ids = ctx.cmd.killSessions;
  if (!Array.isArray(ids))
    throw errors.typeMismatch("BSON field 'killSessions' is the wrong type, expected type 'array'");
  const keys = new Set<string>();
  for (const lsid of ids) {
    const key = sessionKeyOf(lsid);
    if (key === undefined)
      throw errors.failedToParse(
        "BSON field 'KillSessionsCmdFromClient.killSessions.id' is missing but a required field",
      );
    keys.add(key);
  }
  return killSessionsWhere(ctx, (key) => keys.has(key));
};

const killAllSessions: Handler = (ctx) => {
  const users = ctx.cmd.killAllSessions;
  if (!Array.isArray(users))
    throw errors.typeMismatch("BSON field 'killAllSessions' is the wrong type, expected type 'array'");
  // An empty list means every user's sessions. Without authentication no session belongs to a
  // named user, so a list of users matches none.
  if (users.length > 0) return { ok: 1 };
  return killSessionsWhere(ctx, () => true);
};

const serverStatus: Handler = (ctx) => ({
  host: `${ctx.state.host}:${ctx.state.port}`,
  version: '7.0.0',
  process: 'embedded-mongo',
  pid: Long.fromNumber(process.pid),
  uptime: Math.floor((Date.now() - ctx.state.startedAt.getTime()) / 1000),
  localTime: new Date(),
  connections: { current: 0 },
  ok: 1,
});

export const handshakeCommands: Record<string, Handler> = {
  hello: (ctx) => helloReply(ctx, false),
  ismaster: (ctx) => helloReply(ctx, true),
  isMaster: (ctx) => helloReply(ctx, true),
  ping: () => ({ ok: 1 }),
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  setParameter,
  killSessions,
  killAllSessions,
  serverStatus,
  hostInfo: () => ({ system: { hostname: 'localhost', numCores: 1 }, os: { type: process.platform }, ok: 1 }),
  whatsmyuri: () => ({ you: '127.0.0.1', ok: 1 }),
  getCmdLineOpts: (ctx) => ({
    argv: ['embedded-mongo'],
    parsed: { replication: ctx.state.replSet ? { replSet: ctx.state.replSet } : {} },
    ok: 1,
  }),
  getLog: () => ({ totalLinesWritten: 0, log: [], ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  getFreeMonitoringStatus: () => ({ state: 'disabled', ok: 1 }),
  logout: () => ({ ok: 1 }),
  endSessions: (ctx) => {
    const ids = Array.isArray(ctx.cmd.endSessions) ? ctx.cmd.endSessions : [];
    for (const lsid of ids) {
      const key = sessionKeyOf(lsid);
      if (!key) continue;
      const session = ctx.state.sessions.get(key);
      if (session?.txn) ctx.state.engine.abort(session.txn);
      ctx.state.sessions.delete(key);
      ctx.state.localSessions.delete(key);
    }
    return { ok: 1 };
  },
  replSetGetStatus: (ctx) => {
    if (!ctx.state.replSet)
      return { ok: 0, errmsg: 'not running with --replSet', code: 76, codeName: 'NoReplicationEnabled' };
    const me = `${ctx.state.host}:${ctx.state.port}`;
    return {
      set: ctx.state.replSet,
      myState: 1,
      members: [{ _id: 0, name: me, health: 1, state: 1, stateStr: 'PRIMARY', self: true }],
      ok: 1,
    };
  },
};

export function sessionKeyOf(lsid: unknown): string | undefined {
  const id = (lsid as { id?: { toString(enc: string): string; buffer?: Uint8Array } } | undefined)?.id;
  if (!id) return undefined;
  if (id.buffer)
    return Buffer.from(id.buffer.buffer, id.buffer.byteOffset, id.buffer.byteLength).toString('hex');
  return String(id);
}
