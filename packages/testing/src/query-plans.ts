// The plans of a service's own queries: a connection that reports every command it sends (driver
// command monitoring), so a test runs a repository's method, takes the find or aggregate it sent,
// exactly as sent, and asks the server to explain it. A test that explained a copy of the query
// would keep passing after the repository's query changed; this one follows it.
import { randomBytes } from 'node:crypto';
import type { CommandStartedEvent, Document } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { type TestMongo, startTestMongo } from './mongo';

/** The reads whose plan `explain` shows. */
const EXPLAINED_READS = new Set(['find', 'aggregate', 'count', 'distinct']);

/**
 * What the driver adds to a command for its session, transaction, cluster time and server API:
 * not part of the query, and refused inside an explain (a transaction's fields above all).
 */
const DRIVER_FIELDS = new Set([
  'lsid',
  'txnNumber',
  'startTransaction',
  'autocommit',
  'readConcern',
  'writeConcern',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
]);

/** A read a connection sent: the command's name, its collection and the command as sent. */
export interface SentRead {
  name: string;
  collection: string;
  command: Document;
}

/** An explained read: its winning plan's stages, outermost first, and the index each IXSCAN reads. */
export interface QueryPlan {
  /** Every stage (through inputStage and an OR's inputStages), outermost first. */
  stages: Document[];
  /** The stages' names, outermost first: ['LIMIT', 'FETCH', 'IXSCAN'], ['SORT', 'COLLSCAN']. */
  names: string[];
  /** The name of the index each IXSCAN reads, in plan order. */
  indexes: string[];
  /** The explain reply as the server sent it. */
  reply: Document;
}

export interface QueryPlans {
  /** The server (embedded, or MONGO_URL's). */
  mongo: TestMongo;
  /** A connection to a database of its own (`<name>_<random>`) that reports the commands it sends. */
  db: Connection;
  /** The reads (find, aggregate, count, distinct) sent through `db` while `action` ran, in order. */
  readsOf(action: () => Promise<unknown>): Promise<SentRead[]>;
  /** The one read `action` sent to `collection` (it fails when there is not exactly one). */
  readOf(collection: string, action: () => Promise<unknown>): Promise<SentRead>;
  /** `explain` of a read as it was sent, without the driver's session and transaction fields. */
  planOf(read: SentRead): Promise<QueryPlan>;
  close(): Promise<void>;
}

/**
 * A database on the test MongoDB whose connection reports its commands: the service's repositories
 * and indexes are made on `db`, their reads taken with `readsOf` and explained with `planOf`.
 */
export async function startQueryPlans(name: string): Promise<QueryPlans> {
  const mongo = await startTestMongo();
  const dbName = `${name}_${randomBytes(4).toString('hex')}`;
  const db = mongoose.createConnection(mongo.url, {
    dbName,
    serverSelectionTimeoutMS: 5000,
    monitorCommands: true,
  });
  try {
    await db.asPromise();
  } catch (err) {
    await db.close().catch(() => undefined);
    await mongo.stop();
    throw err;
  }
  let recording: SentRead[] | null = null;
  db.getClient().on('commandStarted', (event: CommandStartedEvent) => {
    if (!recording || event.databaseName !== dbName || !EXPLAINED_READS.has(event.commandName)) return;
    // The command object as the driver sent it: its values keep their BSON types (ObjectIds, Maps).
    const command = { ...event.command } as Document;
    recording.push({ name: event.commandName, collection: String(command[event.commandName]), command });
  });
  const readsOf = async (action: () => Promise<unknown>) => {
    if (recording) throw new Error('readsOf: one action at a time');
    const reads: SentRead[] = [];
    recording = reads;
    try {
      await action();
    } finally {
      recording = null;
    }
    return reads;
  };
  return {
    mongo,
    db,
    readsOf,
    async readOf(collection, action) {
      const reads = (await readsOf(action)).filter((read) => read.collection === collection);
      if (reads.length !== 1)
        throw new Error(
          `expected one read of ${collection}, the action sent ${reads.length}: ${JSON.stringify(reads)}`,
        );
      return reads[0];
    },
    async planOf(read) {
      const command: Document = {};
      for (const [key, value] of Object.entries(read.command))
        if (!key.startsWith('$') && !DRIVER_FIELDS.has(key)) command[key] = value;
      const reply = await db.getClient().db(dbName).command({ explain: command, verbosity: 'queryPlanner' });
      return planOf(reply);
    },
    async close() {
      await db.dropDatabase().catch(() => undefined);
      await db.close().catch(() => undefined);
      await mongo.stop();
    },
  };
}

/**
 * The winning plan of an explain reply, whatever its shape: a find's or count's `queryPlanner`, an
 * aggregate's first stage (`stages[0].$cursor`) when the rest of its pipeline runs apart, and
 * MongoDB's slot-based engine's `queryPlan` inside the winning plan.
 */
function planOf(reply: Document): QueryPlan {
  const planner = (reply.queryPlanner ?? reply.stages?.[0]?.$cursor?.queryPlanner) as Document | undefined;
  const winning = planner?.winningPlan as Document | undefined;
  if (!winning) throw new Error(`no winning plan in ${JSON.stringify(reply)}`);
  const stages = flatten((winning.queryPlan as Document | undefined) ?? winning);
  return {
    stages,
    names: stages.map((s) => String(s.stage)),
    indexes: stages.filter((s) => /IXSCAN$/.test(String(s.stage))).map((s) => String(s.indexName)),
    reply,
  };
}

function flatten(stage: Document): Document[] {
  const out = [stage];
  if (stage.inputStage) out.push(...flatten(stage.inputStage as Document));
  for (const input of (stage.inputStages as Document[] | undefined) ?? []) out.push(...flatten(input));
  return out;
}

/** What a query's plan must show. */
export interface PlanExpectation {
  /**
   * The index (or one of the indexes) it reads: every IXSCAN reads one of them; `_id_` is also met by
   * IDHACK, the lookup of one `_id`.
   */
  index: string | string[];
  /** The order comes from the index: no SORT stage (a sort the plan does not give is one). */
  sortedByIndex?: boolean;
}

/**
 * Throws, with the plan, unless it reads through the expected index and not the whole collection
 * (no COLLSCAN), and, when asked, takes its order from the index (no SORT stage).
 */
export function expectIndexedPlan(plan: QueryPlan, expected: PlanExpectation): void {
  const wanted = Array.isArray(expected.index) ? expected.index : [expected.index];
  const problems: string[] = [];
  if (plan.names.includes('COLLSCAN')) problems.push('it scans the collection (COLLSCAN)');
  const idLookup = wanted.includes('_id_') && plan.names.some((n) => /IDHACK$/.test(n));
  if (!idLookup && plan.indexes.length === 0) problems.push('it reads no index');
  const others = plan.indexes.filter((index) => !wanted.includes(index));
  if (others.length > 0) problems.push(`it reads ${others.join(', ')}, not ${wanted.join(' or ')}`);
  if (expected.sortedByIndex && plan.names.includes('SORT'))
    problems.push('it sorts what it read (SORT) instead of walking the index in order');
  if (problems.length > 0)
    throw new Error(
      `${problems.join('; ')}:\n${JSON.stringify(plan.reply.queryPlanner ?? plan.reply, null, 2)}`,
    );
}
