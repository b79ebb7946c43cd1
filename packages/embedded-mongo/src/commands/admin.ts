// Namespace and index commands: create, drop, dropDatabase, listCollections, listDatabases,
// renameCollection, createIndexes, listIndexes, dropIndexes, collStats/dbStats.
import { BSON } from 'bson';
import { MongoServerError, errors } from '../errors';
import { parseCollation } from '../query/collation';
import { matchDocument } from '../query/match';
import { Doc, isPlainObject, setField, valueKey } from '../query/values';
import { IndexSpec } from '../storage/index-def';
import { checkValidationOptions } from './validation';
import { checkIndexSpecFields, isGenericField } from './fields';
import { Handler, collectionName, cursorReply, existing } from './context';

const create: Handler = (ctx) => {
  const name = collectionName(ctx, 'create');
  const options: Doc = {};
  for (const [k, v] of Object.entries(ctx.cmd)) {
    if (k === 'create' || isGenericField(k)) continue;
    setField(options, k, v);
  }
  refuseUnsupportedCreateOptions(options);
  if (options.viewOn !== undefined || options.pipeline !== undefined) {
    checkViewOptions(options);
    if (ctx.txn)
      throw errors.operationNotSupportedInTransaction(
        'Cannot create a view in a multi-document transaction.',
      );
    ctx.state.engine.createCollection(ctx.db, name, options);
    return { ok: 1 };
  }
  checkValidationOptions(options);
  // A default collation is stored (and listed) in MongoDB's full form; the simple one is no default.
  if (options.collation !== undefined) {
    const collation = parseCollation(options.collation);
    if (collation) options.collation = collation.spec;
    else delete options.collation;
  }
  ctx.state.engine.createCollection(ctx.db, name, options, ctx.txn);
  return { ok: 1 };
};

/**
 * Collection kinds and options whose behaviour this server does not have: refused, never stored
 * and ignored (a capped collection that grows, a view that is an empty collection, a validator
 * that lets everything in would each pass a test that fails on MongoDB).
 */
function refuseUnsupportedCreateOptions(options: Doc): void {
  const kinds: Array<[string, string]> = [
    ['capped', 'capped collections'],
    ['timeseries', 'time-series collections'],
    ['clusteredIndex', 'clustered collections'],
    ['expireAfterSeconds', 'collection-level TTL (clustered collections)'],
    ['encryptedFields', 'queryable encryption'],
  ];
  for (const [key, what] of kinds) {
    const v = options[key];
    if (v === undefined || v === null || v === false) continue;
    throw errors.notSupported(what);
  }
  const pre = options.changeStreamPreAndPostImages;
  if (isPlainObject(pre) && pre.enabled === true)
    throw errors.notSupported('change streams (pre- and post-images)');
}

/**
 * A view: `viewOn` names a collection or view of the same database, `pipeline` (default none) is
 * what its reads run first. The other collection options do not apply to a view.
 */
function checkViewOptions(options: Doc): void {
  if (typeof options.viewOn !== 'string')
    throw errors.typeMismatch("BSON field 'create.viewOn' is the wrong type, expected type 'string'");
  if (options.viewOn === '') throw errors.badValue("'viewOn' cannot be empty");
  const pipeline = options.pipeline ?? [];
  if (!Array.isArray(pipeline) || !pipeline.every((stage) => isPlainObject(stage)))
    throw errors.typeMismatch("BSON field 'create.pipeline' is the wrong type, expected type 'array'");
  for (const stage of pipeline as Doc[]) {
    const stageName = Object.keys(stage)[0];
    if (stageName === '$out' || stageName === '$merge')
      throw errors.optionNotSupportedOnView(`${stageName} cannot be used in a view definition`);
  }
  options.pipeline = pipeline;
  for (const key of Object.keys(options))
    if (key !== 'viewOn' && key !== 'pipeline')
      throw errors.invalidOptions(`option '${key}' is not supported on a view`);
}

const drop: Handler = (ctx) => {
  const name = collectionName(ctx, 'drop');
  const coll = existing(ctx, name);
  // MongoDB 7 answers ok to dropping a missing collection.
  const nIndexesWas = coll ? coll.indexes.length + 1 : 0;
  ctx.state.engine.dropCollection(ctx.db, name);
  for (const [id, c] of ctx.state.cursors) if (c.ns === `${ctx.db}.${name}`) ctx.state.cursors.delete(id);
  return coll ? { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 } : { ok: 1 };
};

const dropDatabase: Handler = (ctx) => {
  ctx.state.engine.dropDatabase(ctx.db);
  return { dropped: ctx.db, ok: 1 };
};

const listCollections: Handler = (ctx) => {
  const colls = ctx.state.engine.dbs.get(ctx.db);
  const filter = isPlainObject(ctx.cmd.filter) ? ctx.cmd.filter : {};
  const docs: Doc[] = [];
  for (const c of colls?.values() ?? []) {
    const type = c.isView ? 'view' : 'collection';
    const info: Doc = c.isView
      ? { name: c.name, type, options: c.options, info: { readOnly: true } }
      : {
          name: c.name,
          type,
          options: c.options,
          info: { readOnly: false },
          idIndex: c.indexSpecs()[0],
        };
    if (matchDocument(info, filter)) docs.push(ctx.cmd.nameOnly === true ? { name: c.name, type } : info);
  }
  return cursorReply(ctx, `${ctx.db}.$cmd.listCollections`, docs, undefined);
};

const listDatabases: Handler = (ctx) => {
  const databases: Doc[] = [];
  let total = 0;
  for (const [name, colls] of ctx.state.engine.dbs) {
    let size = 0;
    for (const c of colls.values()) for (const d of c.docs.values()) size += BSON.calculateObjectSize(d);
    total += size;
    databases.push(
      ctx.cmd.nameOnly === true ? { name } : { name, sizeOnDisk: size, empty: colls.size === 0 },
    );
  }
  const filter = isPlainObject(ctx.cmd.filter) ? ctx.cmd.filter : {};
  return {
    databases: databases.filter((d) => matchDocument(d, filter)),
    totalSize: total,
    totalSizeMb: Math.round(total / 1048576),
    ok: 1,
  };
};

const renameCollection: Handler = (ctx) => {
  const from = String(ctx.cmd.renameCollection);
  const to = String(ctx.cmd.to);
  const [fromDb, ...fromRest] = from.split('.');
  const [toDb, ...toRest] = to.split('.');
  if (fromDb !== toDb)
    throw errors.illegalOperation('renaming across databases is not supported by the embedded server');
  ctx.state.engine.renameCollection(
    fromDb,
    fromRest.join('.'),
    toRest.join('.'),
    ctx.cmd.dropTarget === true,
  );
  return { ok: 1 };
};

function defaultIndexName(key: Doc): string {
  return Object.entries(key)
    .map(([k, v]) => `${k}_${String(v)}`)
    .join('_');
}

function sameKey(a: Doc, b: Doc): boolean {
  return valueKey(a) === valueKey(b) && Object.keys(a).join() === Object.keys(b).join();
}

/** Both full collation documents (or both absent: simple). */
function sameCollation(a: IndexSpec, b: IndexSpec): boolean {
  return valueKey(a.collation ?? null) === valueKey(b.collation ?? null);
}

const createIndexes: Handler = (ctx) => {
  const name = collectionName(ctx, 'createIndexes');
  const specs = ctx.cmd.indexes;
  if (!Array.isArray(specs) || specs.length === 0)
    throw errors.failedToParse('Must specify at least one index to create');
  // Every spec is checked before any index is built, as MongoDB validates them all first.
  const ignoreUnknown = ctx.cmd.ignoreUnknownIndexOptions === true;
  const checked = specs.map((raw) => (isPlainObject(raw) ? checkIndexSpecFields(raw, ignoreUnknown) : raw));
  const engine = ctx.state.engine;
  const createdCollectionAutomatically = !existing(ctx, name);
  const coll = engine.ensureCollection(ctx.db, name, ctx.txn);
  const before = coll.indexes.length + 1;
  // MongoDB 4.4+: inside a transaction, new indexes only on a collection it created and left empty.
  const refuseNew = (): void => {
    if (!ctx.txn) return;
    if (coll.owner !== ctx.txn)
      throw errors.operationNotSupportedInTransaction(
        `Cannot create new indexes on existing collection ${coll.ns} in a multi-document transaction.`,
      );
    if (coll.docs.size > 0)
      throw errors.operationNotSupportedInTransaction(
        `Cannot create new indexes on non-empty collection ${coll.ns} in a multi-document transaction.`,
      );
  };
  for (const raw of checked) {
    if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0)
      throw errors.badValue('index specification must have a non-empty key');
    const spec: IndexSpec = {
      v: 2,
      ...(raw as Doc),
      key: raw.key,
      name: typeof raw.name === 'string' ? raw.name : defaultIndexName(raw.key),
    } as IndexSpec;
    // No collation given: the collection's default (MongoDB's full form); simple: none.
    const collation =
      raw.collation === undefined ? coll.idIndex?.spec.collation : parseCollation(raw.collation)?.spec;
    if (collation) spec.collation = collation;
    else delete spec.collation;
    if (sameKey(spec.key, { _id: 1 })) continue;
    const sameName = coll.indexes.find((i) => i.spec.name === spec.name);
    // Indexes on the same keys under different collations are different indexes (MongoDB 3.4+).
    const sameKeys = coll.indexes.find((i) => sameKey(i.spec.key, spec.key) && sameCollation(i.spec, spec));
    if (sameName && (!sameKey(sameName.spec.key, spec.key) || !sameCollation(sameName.spec, spec))) {
      throw errors.indexKeySpecsConflict(
        `An existing index has the same name as the requested index. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
      );
    }
    if (sameKeys) {
      const optionsDiffer =
        Boolean(sameKeys.spec.unique) !== Boolean(spec.unique) ||
        Boolean(sameKeys.spec.sparse) !== Boolean(spec.sparse) ||
        sameKeys.spec.expireAfterSeconds !== spec.expireAfterSeconds;
      if (sameKeys.spec.name !== spec.name)
        throw errors.indexOptionsConflict(
          `Index already exists with a different name: ${sameKeys.spec.name}`,
        );
      if (optionsDiffer) {
        throw errors.indexKeySpecsConflict(
          `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKeys.spec)}`,
        );
      }
      continue;
    }
    refuseNew();
    engine.createIndex(coll, spec);
  }
  const after = coll.indexes.length + 1;
  const reply: Doc = {
    numIndexesBefore: before,
    numIndexesAfter: after,
    createdCollectionAutomatically,
    ok: 1,
  };
  if (before === after) reply.note = 'all indexes already exist';
  return reply;
};

const listIndexes: Handler = (ctx) => {
  const name = collectionName(ctx, 'listIndexes');
  const coll = existing(ctx, name);
  if (!coll) throw errors.namespaceNotFound(`ns does not exist: ${ctx.db}.${name}`);
  if (coll.isView) throw errors.viewNotCollection(coll.ns);
  return cursorReply(ctx, `${ctx.db}.${name}`, coll.indexSpecs() as unknown as Doc[], undefined);
};

const dropIndexes: Handler = (ctx) => {
  const name = collectionName(ctx, Object.keys(ctx.cmd)[0]);
  const coll = existing(ctx, name);
  if (!coll) throw errors.namespaceNotFound(`ns not found ${ctx.db}.${name}`);
  if (coll.isView) throw errors.viewNotCollection(coll.ns);
  const nIndexesWas = coll.indexes.length + 1;
  const target = ctx.cmd.index;
  const names: string[] = [];
  if (target === '*') names.push(...coll.indexes.map((i) => i.spec.name));
  else if (typeof target === 'string') names.push(target);
  else if (Array.isArray(target)) names.push(...target.map(String));
  else if (isPlainObject(target)) {
    const found = coll.indexes.filter((i) => sameKey(i.spec.key, target));
    if (found.length === 0)
      throw errors.indexNotFound(`can't find index with key: ${JSON.stringify(target)}`);
    // The same keys under several collations: MongoDB asks for the name.
    if (found.length > 1)
      throw new MongoServerError(
        181,
        'AmbiguousIndexKeyPattern',
        `index keyPattern ${JSON.stringify(target)} matches ${found.length} indexes, must use index name. ` +
          `Conflicting indexes: ${found.map((i) => JSON.stringify(i.spec)).join(', ')}`,
      );
    names.push(found[0].spec.name);
  }
  for (const n of names) {
    if (n === '_id_') throw errors.invalidOptions('cannot drop _id index');
    ctx.state.engine.dropIndex(coll, n);
  }
  return { nIndexesWas, ok: 1 };
};

const collStats: Handler = (ctx) => {
  const name = collectionName(ctx, 'collStats');
  const coll = existing(ctx, name);
  if (!coll) throw errors.namespaceNotFound(`Collection [${ctx.db}.${name}] not found.`);
  let size = 0;
  for (const d of coll.docs.values()) size += BSON.calculateObjectSize(d);
  return {
    ns: coll.ns,
    count: coll.docs.size,
    size,
    storageSize: size,
    nindexes: coll.indexes.length + 1,
    ok: 1,
  };
};

const dbStats: Handler = (ctx) => {
  const colls = ctx.state.engine.dbs.get(ctx.db);
  let objects = 0;
  for (const c of colls?.values() ?? []) objects += c.docs.size;
  return { db: ctx.db, collections: colls?.size ?? 0, objects, ok: 1 };
};

/** collMod: validator, validationLevel and validationAction; anything else is refused. */
const collMod: Handler = (ctx) => {
  const name = collectionName(ctx, 'collMod');
  const coll = existing(ctx, name);
  if (!coll) throw errors.namespaceNotFound(`ns does not exist: ${ctx.db}.${name}`);
  if (coll.isView) throw errors.notSupported('collMod of a view');
  const patch: Doc = {};
  for (const [k, v] of Object.entries(ctx.cmd)) {
    if (k === 'collMod' || isGenericField(k)) continue;
    if (k === 'validator' || k === 'validationLevel' || k === 'validationAction') patch[k] = v;
    else throw errors.notSupported(`collMod option '${k}'`);
  }
  checkValidationOptions(patch);
  if (Object.keys(patch).length > 0) ctx.state.engine.setOptions(coll, patch);
  return { ok: 1 };
};

const atlasOnly: Handler = () => {
  throw errors.atlasOnly();
};

export const adminCommands: Record<string, Handler> = {
  collMod,
  createSearchIndexes: atlasOnly,
  dropSearchIndex: atlasOnly,
  updateSearchIndex: atlasOnly,
  create,
  drop,
  dropDatabase,
  listCollections,
  listDatabases,
  renameCollection,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  collStats,
  dbStats,
};
