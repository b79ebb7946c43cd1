// insert / find / getMore / killCursors / update / delete / findAndModify / count / distinct / aggregate.
import { Binary, Long, ObjectId } from 'bson';
import { MongoServerError, errors, fromExpressionError } from '../errors';
import { CollectionResolver, runPipeline } from '../query/aggregate';
import { compileFilter, leavesOf, matchDocument } from '../query/match';
import { activeCollator, collatorFor, withCollation } from '../query/collation';
import { parseLet, withVariables } from '../query/expression';
import { runMerge, runOut } from './merge';
import { validateWrite } from './validation';
import { projectDocument } from '../query/projection';
import { sortBy } from '../query/sort';
import { applyUpdate, buildUpsert, checkIdStorable, ensureIdFirst, validateUpdate } from '../query/update';
import {
  Doc,
  cloneValue,
  isPlainObject,
  longToBigInt,
  sameValue,
  valueKey,
  valuesEqual,
} from '../query/values';
import { Collection } from '../storage/collection';
import { Matched, ScanStats } from '../storage/engine';
import {
  CommandContext,
  Handler,
  collectionName,
  cursorReply,
  existing,
  snapshotTimestamp,
  takeBatch,
  toInt,
} from './context';
import {
  DELETE_STATEMENT,
  UPDATE_STATEMENT,
  checkCommandFields,
  checkReadCommandFields,
  checkStatementFields,
} from './fields';

function writeError(index: number, raw: unknown): Doc {
  const err = fromExpressionError(raw) ?? raw;
  // A write conflict fails the whole command (with its retry label), as in MongoDB.
  if (err instanceof MongoServerError && err.code === 112) throw err;
  if (err instanceof MongoServerError) return { index, code: err.code, errmsg: err.message, ...err.extra };
  return { index, code: 1, errmsg: err instanceof Error ? err.message : String(err) };
}

/**
 * Runs a write command's statements in order, a statement that fails recorded as a write error at
 * its index. After one, an ordered command runs no more, nor does one in a transaction (the error
 * aborts it).
 */
function runStatements<T>(
  ctx: CommandContext,
  statements: T[],
  run: (statement: T, index: number) => void,
): Doc[] {
  const ordered = ctx.cmd.ordered !== false;
  const writeErrors: Doc[] = [];
  for (let index = 0; index < statements.length; index++) {
    try {
      run(statements[index], index);
    } catch (err) {
      writeErrors.push(writeError(index, err));
      if (ordered || ctx.txn) break;
    }
  }
  return writeErrors;
}

function prepareInsert(doc: unknown): Doc {
  if (!isPlainObject(doc)) throw errors.typeMismatch('insert documents must be objects');
  if (doc._id === undefined) return { _id: new ObjectId(), ...doc };
  if (Array.isArray(doc._id)) throw errors.badValue("can't use an array for _id");
  checkIdStorable(doc._id);
  return ensureIdFirst(doc);
}

function matchingDocs(ctx: CommandContext, coll: Collection | undefined, filter: Doc): Matched[] {
  if (!coll) return [];
  if (coll.isView)
    return viewDocuments(ctx, coll)
      .filter((doc) => matchDocument(doc, filter))
      .map((doc) => ({ doc }));
  return ctx.state.engine.matching(coll, filter, ctx.txn ?? ctx.snapshot);
}

// MongoDB's limit on views defined on views (ViewDepthLimitExceeded beyond it).
const MAX_VIEW_DEPTH = 20;

/** What a view shows: its source's documents (a view's, resolved in turn) through its pipeline. */
function viewDocuments(ctx: CommandContext, view: Collection, depth = 1): Doc[] {
  if (depth > MAX_VIEW_DEPTH)
    throw new MongoServerError(
      229,
      'ViewDepthLimitExceeded',
      `View depth too deep or view cycle detected. Maximum depth is ${MAX_VIEW_DEPTH}`,
    );
  const source = existing(ctx, view.options.viewOn as string);
  let input: Doc[] = [];
  if (source?.isView) input = viewDocuments(ctx, source, depth + 1);
  else if (source) input = ctx.state.engine.matching(source, {}, ctx.txn ?? ctx.snapshot).map((m) => m.doc);
  return runPipeline(input, cloneValue(view.options.pipeline) as Doc[], resolver(ctx));
}

/** A write addressed to a view: 166, nothing written. */
function refuseView(coll: Collection | undefined): void {
  if (coll?.isView) throw errors.viewNotCollection(coll.ns);
}

function resolver(ctx: CommandContext): CollectionResolver {
  return (name) => {
    const coll = existing(ctx, name);
    return coll ? matchingDocs(ctx, coll, {}).map((m) => m.doc) : [];
  };
}

const insert: Handler = (ctx) => {
  const name = collectionName(ctx, 'insert');
  const docs = ctx.cmd.documents;
  if (!Array.isArray(docs))
    throw errors.failedToParse("BSON field 'insert.documents' is missing but a required field");
  checkCommandFields('insert', ctx.cmd);
  const coll = ctx.state.engine.ensureCollection(ctx.db, name, ctx.txn);
  const bypass = ctx.cmd.bypassDocumentValidation === true;
  let n = 0;
  const writeErrors = runStatements(ctx, docs, (raw) => {
    const doc = prepareInsert(raw);
    validateWrite(coll, doc, undefined, bypass);
    ctx.state.engine.insert(coll, doc, ctx.txn);
    n++;
  });
  return writeErrors.length > 0 ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

function sortAndPage(matched: Matched[], cmd: Doc, sorted = false): Matched[] {
  let out = matched;
  const { skip, limit, sort } = paging(cmd);
  if (sort && !sorted) out = sortBy(out, sort, (m) => m.doc, limit > 0 ? skip + limit : undefined);
  if (skip > 0) out = out.slice(skip);
  if (limit > 0) out = out.slice(0, limit);
  return out;
}

function paging(cmd: Doc): { skip: number; limit: number; sort?: Doc } {
  const skip = toInt(cmd.skip, 0)!;
  if (skip < 0) throw errors.badValue('skip value must be non-negative');
  const limit = Math.abs(toInt(cmd.limit, 0)!);
  const sort = isPlainObject(cmd.sort) && Object.keys(cmd.sort).length > 0 ? cmd.sort : undefined;
  return { skip, limit, sort };
}

/**
 * A find's documents, sorted and paged: an index walked in the sort's order needs no sort and
 * stops after skip + limit matches.
 */
function findMatches(
  ctx: CommandContext,
  coll: Collection | undefined,
  filter: Doc,
  cmd: Doc,
  stats?: ScanStats,
): Matched[] {
  if (!coll || coll.isView) return sortAndPage(matchingDocs(ctx, coll, filter), cmd);
  const { skip, limit, sort } = paging(cmd);
  const order = sort ? { sort, want: limit > 0 ? skip + limit : undefined } : undefined;
  const { matched, sorted } = ctx.state.engine.matchingInOrder(
    coll,
    filter,
    ctx.txn ?? ctx.snapshot,
    order,
    stats,
  );
  return sortAndPage(matched, cmd, sorted);
}

const find: Handler = (ctx) => {
  checkReadCommandFields('find', ctx.cmd);
  refuseFindOptions(ctx);
  const name = collectionName(ctx, 'find');
  const filter = compileFilter(ctx.cmd.filter);
  const coll = existing(ctx, name);
  const matched = findMatches(ctx, coll, filter, ctx.cmd);
  const projection = isPlainObject(ctx.cmd.projection) ? ctx.cmd.projection : undefined;
  const docs = matched.map((m) => projectDocument(m.doc, projection, m.position));
  const limit = toInt(ctx.cmd.limit, 0)!;
  const single = ctx.cmd.singleBatch === true || limit < 0;
  return cursorReply(ctx, `${ctx.db}.${name}`, docs, toInt(ctx.cmd.batchSize, undefined), single);
};

/** find options whose effect this server does not have: MongoDB's error, or refused. */
function refuseFindOptions(ctx: CommandContext): void {
  const cmd = ctx.cmd;
  if (cmd.tailable === true || cmd.awaitData === true)
    throw errors.badValue('error processing query: tailable cursor requested on non capped collection');
  if ((cmd.min !== undefined || cmd.max !== undefined) && cmd.hint === undefined)
    throw errors.location(51173, 'When using min()/max() a hint of which index to use must be provided');
  if (cmd.min !== undefined || cmd.max !== undefined) throw errors.notSupported('find with min/max');
  if (cmd.returnKey === true) throw errors.notSupported('find with returnKey');
  if (cmd.showRecordId === true) throw errors.notSupported('find with showRecordId');
}

const getMore: Handler = (ctx) => {
  const raw = ctx.cmd.getMore;
  const id =
    typeof raw === 'object' && raw !== null && (raw as Long)._bsontype === 'Long'
      ? longToBigInt(raw as Long)
      : BigInt(Number(raw));
  const cursor = ctx.state.cursors.get(id);
  if (!cursor) throw errors.cursorNotFound(id);
  const size = toInt(ctx.cmd.batchSize, undefined) ?? Number.MAX_SAFE_INTEGER;
  const batch = takeBatch(cursor.docs, cursor.pos, size <= 0 ? Number.MAX_SAFE_INTEGER : size);
  cursor.pos += batch.length;
  cursor.lastUsed = Date.now();
  let replyId = id;
  if (cursor.pos >= cursor.docs.length) {
    ctx.state.cursors.delete(id);
    replyId = 0n;
  }
  return { cursor: { nextBatch: batch, id: Long.fromBigInt(replyId), ns: cursor.ns }, ok: 1 };
};

const killCursors: Handler = (ctx) => {
  const ids = Array.isArray(ctx.cmd.cursors) ? ctx.cmd.cursors : [];
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const raw of ids) {
    const id = (raw as Long)._bsontype === 'Long' ? longToBigInt(raw as Long) : BigInt(Number(raw));
    if (ctx.state.cursors.delete(id)) killed.push(Long.fromBigInt(id));
    else notFound.push(Long.fromBigInt(id));
  }
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

interface UpdateOutcome {
  n: number;
  nModified: number;
  upsertedId?: unknown;
  before?: Doc;
  after?: Doc;
}

/** One update statement: the core shared by `update` and `findAndModify`. */
function runUpdate(
  ctx: CommandContext,
  coll: Collection,
  q: Doc,
  u: Doc | Doc[],
  opts: { multi: boolean; upsert: boolean; arrayFilters?: Doc[]; sort?: Doc },
): UpdateOutcome {
  validateUpdate(u);
  if (!Array.isArray(u) && !Object.keys(u)[0]?.startsWith('$') && opts.multi)
    throw errors.failedToParse('multi update is not supported for replacement-style update');
  const engine = ctx.state.engine;
  let matched = matchingDocs(ctx, coll, q);
  if (opts.sort) matched = sortAndPage(matched, { sort: opts.sort });
  if (!opts.multi) matched = matched.slice(0, 1);
  if (matched.length === 0) {
    if (!opts.upsert) return { n: 0, nModified: 0 };
    const doc = buildUpsert(q, u, { arrayFilters: opts.arrayFilters });
    validateWrite(coll, doc, undefined, ctx.cmd.bypassDocumentValidation === true);
    engine.insert(coll, doc, ctx.txn);
    return { n: 1, nModified: 0, upsertedId: doc._id, after: doc };
  }
  let nModified = 0;
  let first: UpdateOutcome | undefined;
  for (const m of matched) {
    const next = applyUpdate(m.doc, u, { position: m.position, arrayFilters: opts.arrayFilters });
    const changed = !sameValue(m.doc, next);
    if (changed) {
      validateWrite(coll, next, m.doc, ctx.cmd.bypassDocumentValidation === true);
      engine.replace(coll, next, ctx.txn);
      nModified++;
    } else if (ctx.txn) engine.touch(coll, m.doc, ctx.txn);
    if (!first) first = { n: 1, nModified: 0, before: m.doc, after: next };
  }
  return { n: matched.length, nModified, before: first?.before, after: first?.after };
}

/**
 * Runs one update/delete statement inside its own collation and `c` constants (beside the
 * command's `let`); a statement with neither runs directly.
 */
function inStatementScope<T>(s: Doc, cField: string, coll: Collection | undefined, run: () => T): T {
  // A statement without a collation has its collection's default.
  const collator = s.collation === undefined ? coll?.collator : collatorFor(s.collation);
  if (collator === undefined && s.c === undefined) return run();
  // `c`: the statement's constants, beside the command's `let`.
  const withC = s.c === undefined ? run : () => withVariables(parseLet(s.c, cField), run);
  return withCollation(collator, withC);
}

/**
 * The statements of an update or delete command, all parsed before any runs: one malformed
 * statement or collation refuses the whole command, and nothing is written.
 */
function parsedStatements(
  ctx: CommandContext,
  command: 'update' | 'delete',
  field: 'updates' | 'deletes',
  allowed: Set<string>,
): Doc[] {
  const statements = ctx.cmd[field];
  if (!Array.isArray(statements))
    throw errors.failedToParse(`BSON field '${command}.${field}' is missing but a required field`);
  checkCommandFields(command, ctx.cmd);
  for (const spec of statements) {
    if (!isPlainObject(spec))
      throw errors.typeMismatch(`BSON field '${command}.${field}' must be an array of objects`);
    checkStatementFields(`${command}.${field}`, spec, allowed);
    collatorFor(spec.collation);
  }
  return statements as Doc[];
}

const update: Handler = (ctx) => {
  const name = collectionName(ctx, 'update');
  const updates = parsedStatements(ctx, 'update', 'updates', UPDATE_STATEMENT);
  const coll = ctx.state.engine.ensureCollection(ctx.db, name, ctx.txn);
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const writeErrors = runStatements(ctx, updates, (s, index) => {
    const r = inStatementScope(s, 'update.updates.c', coll, () =>
      runUpdate(ctx, coll, compileFilter(s.q), s.u as Doc, {
        multi: s.multi === true,
        upsert: s.upsert === true,
        arrayFilters: Array.isArray(s.arrayFilters) ? (s.arrayFilters as Doc[]) : undefined,
      }),
    );
    n += r.n;
    nModified += r.nModified;
    if (r.upsertedId !== undefined) upserted.push({ index, _id: r.upsertedId });
  });
  const reply: Doc = { n, nModified, ok: 1 };
  if (upserted.length > 0) reply.upserted = upserted;
  if (writeErrors.length > 0) reply.writeErrors = writeErrors;
  return reply;
};

const del: Handler = (ctx) => {
  const name = collectionName(ctx, 'delete');
  const deletes = parsedStatements(ctx, 'delete', 'deletes', DELETE_STATEMENT);
  const coll = existing(ctx, name);
  refuseView(coll);
  let n = 0;
  const writeErrors = runStatements(ctx, deletes, (s) => {
    const limit = toInt(s.limit, 0);
    const collator = s.collation === undefined ? coll?.collator : collatorFor(s.collation);
    let matched = withCollation(collator, () => matchingDocs(ctx, coll, compileFilter(s.q)));
    if (limit === 1) matched = matched.slice(0, 1);
    for (const m of matched) ctx.state.engine.delete(coll!, m.doc, ctx.txn);
    n += matched.length;
  });
  return writeErrors.length > 0 ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

const findAndModify: Handler = (ctx) => {
  const name = collectionName(ctx, Object.keys(ctx.cmd)[0]);
  const cmd = ctx.cmd;
  checkCommandFields('findAndModify', cmd);
  const filter = compileFilter(cmd.query);
  const sort = isPlainObject(cmd.sort) ? cmd.sort : undefined;
  const fields = isPlainObject(cmd.fields) ? cmd.fields : undefined;
  const engine = ctx.state.engine;
  if (cmd.remove === true) {
    const coll = existing(ctx, name);
    refuseView(coll);
    let matched = matchingDocs(ctx, coll, filter);
    if (sort) matched = sortAndPage(matched, { sort });
    const target = matched[0];
    if (target) engine.delete(coll!, target.doc, ctx.txn);
    return {
      lastErrorObject: { n: target ? 1 : 0 },
      value: target ? projectDocument(target.doc, fields) : null,
      ok: 1,
    };
  }
  if (cmd.update === undefined)
    throw errors.failedToParse('Either an update or remove=true must be specified');
  const coll = engine.ensureCollection(ctx.db, name, ctx.txn);
  const r = runUpdate(ctx, coll, filter, cmd.update as Doc, {
    multi: false,
    upsert: cmd.upsert === true,
    arrayFilters: Array.isArray(cmd.arrayFilters) ? (cmd.arrayFilters as Doc[]) : undefined,
    sort,
  });
  const lastErrorObject: Doc = { n: r.n, updatedExisting: r.n > 0 && r.upsertedId === undefined };
  if (r.upsertedId !== undefined) lastErrorObject.upserted = r.upsertedId;
  const chosen = cmd.new === true ? r.after : r.before;
  return { lastErrorObject, value: chosen ? projectDocument(chosen, fields) : null, ok: 1 };
};

const count: Handler = (ctx) => {
  checkReadCommandFields('count', ctx.cmd);
  const name = collectionName(ctx, 'count');
  const query = ctx.cmd.query;
  const plain =
    (query === undefined || (isPlainObject(query) && Object.keys(query).length === 0)) &&
    ctx.cmd.skip === undefined &&
    ctx.cmd.limit === undefined;
  // estimatedDocumentCount: no need to walk the collection.
  const coll = existing(ctx, name);
  if (plain && !ctx.txn && !coll?.isView) return { n: coll?.docs.size ?? 0, ok: 1 };
  const matched = sortAndPage(matchingDocs(ctx, coll, compileFilter(ctx.cmd.query)), {
    skip: ctx.cmd.skip,
    limit: ctx.cmd.limit,
  });
  return { n: matched.length, ok: 1 };
};

const distinct: Handler = (ctx) => {
  checkReadCommandFields('distinct', ctx.cmd);
  const name = collectionName(ctx, 'distinct');
  const key = ctx.cmd.key;
  if (typeof key !== 'string')
    throw errors.failedToParse("BSON field 'distinct.key' is missing but a required field");
  const seen = new Map<string, unknown>();
  for (const m of matchingDocs(ctx, existing(ctx, name), compileFilter(ctx.cmd.query))) {
    for (const leaf of leavesOf(m.doc, key)) {
      if (leaf.value === undefined || Array.isArray(leaf.value)) continue;
      const k = valueKey(leaf.value);
      if (seen.has(k)) continue;
      // Under a collation, values it calls equal ('a' and 'A' at strength 2) are one value.
      if (activeCollator() && [...seen.values()].some((v) => valuesEqual(v, leaf.value))) continue;
      seen.set(k, leaf.value);
    }
  }
  const reply: Doc = { values: [...seen.values()], ok: 1 };
  if (ctx.snapshotTime) reply.atClusterTime = snapshotTimestamp(ctx);
  return reply;
};

const aggregate: Handler = (ctx) => {
  checkReadCommandFields('aggregate', ctx.cmd);
  // `explain: true` inside the aggregate (the older form of explaining one): its plan, no results.
  if (ctx.cmd.explain === true && typeof ctx.cmd.aggregate === 'string')
    return explainAggregate(ctx, ctx.cmd);
  const target = ctx.cmd.aggregate;
  const pipeline = ctx.cmd.pipeline;
  if (!Array.isArray(pipeline)) throw errors.typeMismatch("'pipeline' option must be specified as an array");
  if (!isPlainObject(ctx.cmd.cursor) && ctx.cmd.explain !== true) {
    throw errors.failedToParse(
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  // $out / $merge: the last stage writes the results; they may appear nowhere else.
  const last = pipeline[pipeline.length - 1] as Doc | undefined;
  const writer = last && isPlainObject(last) ? ['$out', '$merge'].find((k) => k in last) : undefined;
  if (writer) {
    if (ctx.txn) throw errors.operationNotSupportedInTransaction(`${writer} cannot be used in a transaction`);
    if (ctx.snapshot) throw errors.invalidOptions(`${writer} cannot be used with readConcern level snapshot`);
    const rc = ctx.cmd.readConcern;
    if (isPlainObject(rc) && rc.level === 'linearizable')
      throw errors.invalidOptions(`${writer} cannot be used with a 'linearizable' read concern level`);
    pipeline.pop();
  }
  if (activeCollator()) refuseCollatedStages(pipeline as Doc[]);
  for (const stage of pipeline as Doc[])
    if (isPlainObject(stage) && ('$out' in stage || '$merge' in stage))
      throw errors.location(
        40601,
        `${'$out' in stage ? '$out' : '$merge'} can only be the final stage in the pipeline`,
      );
  let input: Doc[];
  let ns: string;
  if (typeof target === 'string') {
    ns = `${ctx.db}.${target}`;
    const coll = existing(ctx, target);
    // A leading $match can use the _id map or an index before the rest of the pipeline runs.
    const head = pipeline[0] as Doc | undefined;
    if (coll?.isView) input = viewDocuments(ctx, coll);
    else if (head && isPlainObject(head.$match)) {
      input = matchingDocs(ctx, coll, head.$match).map((m) => m.doc);
      pipeline.shift();
    } else input = matchingDocs(ctx, coll, {}).map((m) => m.doc);
  } else {
    ns = `${ctx.db}.$cmd.aggregate`;
    input = [];
    // `aggregate: 1` reads no collection: its first stage must make the documents (the writer
    // stage, already taken off, counts when it is the only one).
    const head = (pipeline[0] ?? last) as Doc | undefined;
    const first = head && isPlainObject(head) ? Object.keys(head)[0] : undefined;
    if (first === '$listLocalSessions') {
      input = listLocalSessions(ctx, head!.$listLocalSessions);
      pipeline.shift();
    } else if (first === undefined) {
      throw errors.invalidNamespace('{aggregate: 1} is not valid for an empty pipeline.');
    } else if (!COLLECTIONLESS_STAGES.has(first)) {
      throw errors.invalidNamespace(`{aggregate: 1} is not valid for '${first}'; a collection is required.`);
    }
  }
  const docs = runPipeline(input, pipeline as Doc[], resolver(ctx));
  const batch = isPlainObject(ctx.cmd.cursor) ? toInt(ctx.cmd.cursor.batchSize, undefined) : undefined;
  if (writer === '$out') runOut(ctx, docs, last!.$out);
  if (writer === '$merge') runMerge(ctx, docs, last!.$merge);
  return cursorReply(ctx, ns, writer ? [] : docs, batch);
};

// Stages that make their own documents, so they may start a database-level `aggregate: 1` (the
// others this server knows, $currentOp and $changeStream, are refused as unsupported by the pipeline).
const COLLECTIONLESS_STAGES = new Set(['$listLocalSessions', '$documents', '$currentOp', '$changeStream']);

// sha256 of the empty user name: the uid of every session on a server without authentication.
const NO_USER_UID = new Binary(Buffer.from('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=', 'base64'), 0);

/** $listLocalSessions (admin, aggregate: 1): the sessions in the server's session cache. */
function listLocalSessions(ctx: CommandContext, spec: unknown): Doc[] {
  if (ctx.db !== 'admin')
    throw errors.location(
      50787,
      '$listLocalSessions must be run against the admin database with {aggregate: 1}',
    );
  if (spec !== undefined && !isPlainObject(spec))
    throw errors.typeMismatch('$listLocalSessions must be an object');
  if (isPlainObject(spec) && Array.isArray(spec.users) && spec.users.length > 0) return []; // no authentication: no session belongs to a named user
  return [...ctx.state.localSessions.values()].map((s) => ({
    _id: { id: s.id, uid: NO_USER_UID },
    lastUse: new Date(s.lastUse),
  }));
}

// Stages that compare strings only through the matcher and sort here, so a collation applies to
// them as on MongoDB; the rest (grouping keys, expressions, lookups) would compare binarily.
const COLLATED_STAGES = new Set(['$match', '$sort', '$skip', '$limit', '$count', '$out', '$merge']);

function refuseCollatedStages(pipeline: Doc[]): void {
  for (const stage of pipeline) {
    const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
    if (!name || COLLATED_STAGES.has(name)) continue;
    // countDocuments: a $group on a constant key counts, it compares nothing.
    if (name === '$group' && isPlainObject(stage.$group)) {
      const id = stage.$group._id;
      if (id === null || typeof id === 'number' || (typeof id === 'string' && !id.startsWith('$'))) continue;
    }
    throw errors.notSupported(`a collation with the ${name} stage`);
  }
}

/**
 * explain for find, aggregate, count and distinct: the access path (IDHACK / IXSCAN / OR /
 * COLLSCAN) and documents examined. An aggregate's access path is its leading `$match`'s; the
 * stages after it are listed after it, as MongoDB lists those it does not push into the query.
 */
const explain: Handler = (ctx) => {
  const inner = ctx.cmd.explain;
  if (!isPlainObject(inner)) throw errors.illegalOperation(EXPLAINED_COMMANDS);
  const kind = Object.keys(inner)[0];
  if (typeof inner[kind] !== 'string') throw errors.illegalOperation(EXPLAINED_COMMANDS);
  switch (kind) {
    case 'find':
      // MongoDB parses the explained command with its own IDL: 40415 for a field it does not define.
      checkReadCommandFields('find', inner);
      return explainFind(ctx, inner);
    case 'count': {
      checkReadCommandFields('count', inner);
      const reply = explainAccess(ctx, inner.count, compileFilter(inner.query));
      reply.queryPlanner.winningPlan = { stage: 'COUNT', inputStage: reply.queryPlanner.winningPlan };
      return reply;
    }
    case 'distinct':
      checkReadCommandFields('distinct', inner);
      return explainAccess(ctx, inner.distinct, compileFilter(inner.query));
    case 'aggregate':
      checkReadCommandFields('aggregate', inner);
      return explainAggregate(ctx, inner);
    default:
      throw errors.illegalOperation(EXPLAINED_COMMANDS);
  }
};

const EXPLAINED_COMMANDS = 'the embedded server explains find, aggregate, count and distinct commands only';

function explainFind(ctx: CommandContext, inner: Doc): Doc {
  const filter = compileFilter(inner.filter);
  const coll = existing(ctx, inner.find as string);
  if (coll?.isView) throw errors.notSupported('explain of a find on a view');
  const stats: ScanStats = { examined: 0, keysExamined: 0 };
  const returned = coll ? findMatches(ctx, coll, filter, inner, stats) : [];
  const { limit } = paging(inner);
  return {
    queryPlanner: {
      namespace: `${ctx.db}.${inner.find as string}`,
      parsedQuery: filter,
      winningPlan: withSortStage(stats.plan ?? { stage: 'EOF' }, inner.sort, limit, stats.sorted === true),
      rejectedPlans: [],
    },
    executionStats: executionStats(returned.length, stats),
    ok: 1,
  };
}

/** The access path of a read with no sort or paging (count, distinct, an aggregate's $match). */
function explainAccess(ctx: CommandContext, name: unknown, filter: Doc): Doc & { queryPlanner: Doc } {
  if (typeof name !== 'string') throw errors.illegalOperation('explain needs a collection');
  const coll = existing(ctx, name);
  if (coll?.isView) throw errors.notSupported('explain on a view');
  const stats: ScanStats = { examined: 0, keysExamined: 0 };
  const matched = coll ? ctx.state.engine.matching(coll, filter, ctx.txn ?? ctx.snapshot, stats) : [];
  return {
    queryPlanner: {
      namespace: `${ctx.db}.${name}`,
      parsedQuery: filter,
      winningPlan: stats.plan ?? { stage: 'EOF' },
      rejectedPlans: [],
    },
    executionStats: executionStats(matched.length, stats),
    ok: 1,
  };
}

function explainAggregate(ctx: CommandContext, cmd: Doc): Doc {
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline)) throw errors.typeMismatch("'pipeline' option must be specified as an array");
  const head = pipeline[0] as Doc | undefined;
  const leadingMatch = head && isPlainObject(head) && isPlainObject(head.$match);
  const access = explainAccess(ctx, cmd.aggregate, leadingMatch ? compileFilter(head.$match) : {});
  const rest = leadingMatch ? pipeline.slice(1) : pipeline;
  if (rest.length === 0) return access;
  const { ok, ...cursor } = access;
  return { stages: [{ $cursor: cursor }, ...rest], ok };
}

function executionStats(nReturned: number, stats: ScanStats): Doc {
  return {
    executionSuccess: true,
    nReturned,
    totalKeysExamined: stats.keysExamined,
    totalDocsExamined: stats.examined,
  };
}

/**
 * A sort the access path does not give is a SORT stage over it, as in MongoDB's plans; an index
 * walked in the sort's order is not, and a limit over it is a LIMIT stage (the walk stops there).
 */
function withSortStage(plan: Doc, sort: unknown, limit: number, walked: boolean): Doc {
  if (walked || !isPlainObject(sort) || Object.keys(sort).length === 0)
    return limit > 0 ? { stage: 'LIMIT', limitAmount: limit, inputStage: plan } : plan;
  return { stage: 'SORT', sortPattern: sort, ...(limit > 0 ? { limitAmount: limit } : {}), inputStage: plan };
}

export const crudCommands: Record<string, Handler> = {
  explain,
  insert,
  find,
  getMore,
  killCursors,
  update,
  delete: del,
  findAndModify,
  findandmodify: findAndModify,
  count,
  distinct,
  aggregate,
};
