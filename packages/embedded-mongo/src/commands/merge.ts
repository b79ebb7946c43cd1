// The writing aggregation stages, $out and $merge (MongoDB 7.0): the pipeline before them runs as
// usual, then its results are written into the target collection through the engine, so they are
// journaled, unique-checked and seen by transactions like any other write.
import { ObjectId } from 'bson';
import { MongoServerError, errors } from '../errors';
import { currentLet, evaluate, withVariables } from '../query/expression';
import { applyUpdate, ensureIdFirst } from '../query/update';
import { Doc, cloneValue, getField, isPlainObject, valueKey } from '../query/values';
import { Collection } from '../storage/collection';
import { CommandContext } from './context';

interface Target {
  db: string;
  coll: string;
}

function targetOf(ctx: CommandContext, spec: unknown, stage: string): Target {
  if (typeof spec === 'string') return { db: ctx.db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === 'string')
    return { db: typeof spec.db === 'string' ? spec.db : ctx.db, coll: spec.coll };
  throw errors.failedToParse(`${stage} requires a collection name or { db, coll }`);
}

function withId(doc: Doc): Doc {
  return doc._id === undefined ? { _id: new ObjectId(), ...doc } : ensureIdFirst(doc);
}

/**
 * $out: the results replace the target's documents (its indexes stay). Checked whole first, in a
 * scratch collection with the target's indexes, so a duplicate key leaves the target unchanged,
 * as MongoDB's write-to-temp-then-rename does.
 */
export function runOut(ctx: CommandContext, docs: Doc[], spec: unknown): void {
  if (isPlainObject(spec) && spec.timeseries !== undefined)
    throw errors.notSupported('$out to a time-series collection');
  const to = targetOf(ctx, spec, '$out');
  const engine = ctx.state.engine;
  const current = engine.getCollection(to.db, to.coll);
  const scratch = new Collection(to.db, to.coll);
  for (const index of current?.indexes ?? []) scratch.addIndex(index.spec);
  const results = docs.map(withId);
  for (const doc of results) scratch.insert(doc);
  const target = engine.ensureCollection(to.db, to.coll);
  for (const doc of [...target.docs.values()]) engine.delete(target, doc);
  for (const doc of results) engine.insert(target, doc);
}

/** $merge: each result is matched to the target on `on` and inserted, replaced, merged... */
export function runMerge(ctx: CommandContext, docs: Doc[], raw: unknown): void {
  const spec: Doc = typeof raw === 'string' ? { into: raw } : isPlainObject(raw) ? raw : {};
  if (spec.into === undefined)
    throw errors.failedToParse("BSON field '$merge.into' is missing but a required field");
  const to = targetOf(ctx, spec.into, '$merge');
  const on =
    spec.on === undefined ? ['_id'] : Array.isArray(spec.on) ? spec.on.map(String) : [String(spec.on)];
  const whenMatched = spec.whenMatched ?? 'merge';
  const whenNotMatched = spec.whenNotMatched ?? 'insert';
  const engine = ctx.state.engine;
  const target = engine.ensureCollection(to.db, to.coll);
  if (!(on.length === 1 && on[0] === '_id')) {
    const unique = target.indexes.some(
      (i) =>
        i.unique &&
        !i.spec.partialFilterExpression &&
        i.fields.length === on.length &&
        on.every((f) => i.fields.includes(f)),
    );
    if (!unique) throw errors.location(51183, 'Cannot find index to verify that join fields will be unique');
  }
  const vars = isPlainObject(spec.let) ? spec.let : { new: '$$ROOT' };
  for (const result of docs) {
    const filter: Doc = {};
    for (const field of on) {
      const v = getField(result, field);
      if (v === undefined || Array.isArray(v))
        throw errors.location(
          51132,
          `$merge write error: 'on' field '${field}' cannot be missing, null or an array`,
        );
      filter[field] = v;
    }
    const existing = engine.matching(target, filter)[0]?.doc;
    if (!existing) {
      if (whenNotMatched === 'discard') continue;
      if (whenNotMatched === 'fail')
        throw errors.location(
          13113,
          '$merge could not find a matching document in the target collection for at least one document in the source collection',
        );
      engine.insert(target, withId(result));
      continue;
    }
    let next: Doc | undefined;
    if (whenMatched === 'keepExisting') continue;
    if (whenMatched === 'fail') throw mergeDuplicate(target, on, filter);
    if (whenMatched === 'replace') next = { ...result, _id: existing._id };
    else if (whenMatched === 'merge') next = { ...cloneValue(existing), ...result, _id: existing._id };
    else if (Array.isArray(whenMatched)) {
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(vars)) values[k] = evaluate(result, v);
      next = withVariables({ ...currentLet(), ...values }, () => applyUpdate(existing, whenMatched as Doc[]));
      next = { ...next, _id: existing._id };
    } else
      throw errors.badValue(
        `Enumeration value '${String(whenMatched)}' for field 'whenMatched' is not a valid value.`,
      );
    if (valueKey(next._id) !== valueKey(existing._id))
      throw errors.immutableField('$merge write error: the _id field of the target document cannot change');
    engine.replace(target, ensureIdFirst(next));
  }
}

function mergeDuplicate(target: Collection, on: string[], filter: Doc): MongoServerError {
  const pattern: Doc = {};
  for (const f of on) pattern[f] = 1;
  const name = on.length === 1 && on[0] === '_id' ? '_id_' : on.map((f) => `${f}_1`).join('_');
  const shown = Object.entries(filter)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ');
  return new MongoServerError(
    11000,
    'DuplicateKey',
    `$merge failed due to a DuplicateKey error :: caused by :: E11000 duplicate key error collection: ${target.ns} index: ${name} dup key: { ${shown} }`,
    { keyPattern: pattern, keyValue: filter },
  );
}
