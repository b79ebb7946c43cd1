// Update operators with MongoDB semantics, including positional `$`, `$[]`, `$[id]` with
// arrayFilters, upsert seeding from the filter and `$setOnInsert`. Pipeline updates go to mingo.
import { mingoPipeline } from './expression';
import { ObjectId, Timestamp } from 'bson';
import { MongoServerError, errors } from '../errors';
import { addNumbers, multiplyNumbers, numKind } from './arith';
import { matchDocument } from './match';
import { sortDocuments } from './sort';
import {
  Doc,
  cloneValue,
  compareValues,
  getField,
  isPlainObject,
  setField,
  typeNames,
  valueKey,
  valuesEqual,
} from './values';

export interface UpdateContext {
  position?: number;
  arrayFilters?: Doc[];
  isInsert?: boolean;
}

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$rename',
  '$currentDate',
  '$setOnInsert',
]);

export function isOperatorUpdate(update: Doc): boolean {
  const keys = Object.keys(update);
  return keys.length > 0 && keys[0].startsWith('$');
}

export function validateUpdate(update: unknown): void {
  if (Array.isArray(update)) return;
  if (!isPlainObject(update))
    throw errors.failedToParse('Update argument must be either an object or an array');
  if (!isOperatorUpdate(update)) {
    for (const k of Object.keys(update))
      if (k.startsWith('$'))
        throw errors.badValue(
          `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in the context of an update's replacement document.`,
        );
    return;
  }
  const seen: string[] = [];
  for (const [op, spec] of Object.entries(update)) {
    if (!OPERATORS.has(op))
      throw new MongoServerError(
        9,
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(spec))
      throw new MongoServerError(
        9,
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeNames(spec)[0]} instead.`,
      );
    const paths =
      op === '$rename' ? [...Object.keys(spec), ...Object.values(spec).map(String)] : Object.keys(spec);
    for (const p of paths) {
      const clash = seen.find((s) => s === p || s.startsWith(p + '.') || p.startsWith(s + '.'));
      if (clash !== undefined)
        throw errors.conflictingUpdateOperators(
          `Updating the path '${p}' would create a conflict at '${clash}'`,
        );
      seen.push(p);
    }
  }
}

function typeName(v: unknown): string {
  return typeNames(v)[0];
}

/** Expands a path with positional parts into concrete paths that exist (or are to be created). */
function expandPath(doc: Doc, parts: string[], ctx: UpdateContext): string[][] {
  // Only `$`, `$[]` and `$[id]` parts depend on the document; without them the path is itself.
  if (!parts.some(mayBePositional)) return [parts];
  const results: string[][] = [];
  const walk = (value: unknown, i: number, prefix: string[]) => {
    if (i === parts.length) {
      results.push(prefix);
      return;
    }
    const part = parts[i];
    if (part === '$') {
      if (ctx.position === undefined)
        throw errors.badValue('The positional operator did not find the match needed from the query.');
      walk(Array.isArray(value) ? value[ctx.position] : undefined, i + 1, [...prefix, String(ctx.position)]);
      return;
    }
    if (part === '$[]' || /^\$\[[a-zA-Z0-9]+\]$/.test(part)) {
      if (!Array.isArray(value)) {
        if (ctx.isInsert) return;
        throw errors.badValue(
          `The path '${prefix.join('.')}' must exist in the document in order to apply array updates.`,
        );
      }
      const ident = part === '$[]' ? undefined : part.slice(2, -1);
      const filter = ident === undefined ? undefined : findArrayFilter(ident, ctx.arrayFilters);
      value.forEach((el, idx) => {
        if (filter && !matchDocument(wrapForFilter(ident!, el), filter)) return;
        walk(el, i + 1, [...prefix, String(idx)]);
      });
      return;
    }
    const next = Array.isArray(value)
      ? /^\d+$/.test(part)
        ? value[Number(part)]
        : undefined
      : isPlainObject(value)
        ? getField(value, part)
        : undefined;
    walk(next, i + 1, [...prefix, part]);
  };
  walk(doc, 0, []);
  return results;
}

function mayBePositional(part: string): boolean {
  return part.startsWith('$');
}

function wrapForFilter(ident: string, el: unknown): Doc {
  return { [ident]: el };
}

function findArrayFilter(ident: string, filters: Doc[] | undefined): Doc {
  for (const f of filters ?? []) {
    const keys = Object.keys(f);
    if (keys.length > 0 && keys.every((k) => k === ident || k.startsWith(ident + '.'))) return f;
  }
  throw errors.badValue(`No array filter found for identifier '${ident}' in path`);
}

interface Slot {
  parent: Doc | unknown[];
  key: string;
  exists: boolean;
  value: unknown;
}

/** Finds (creating intermediate objects when `create`) the container holding the last path part. */
function locate(doc: Doc, parts: string[], create: boolean): Slot | undefined {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i];
    let next: unknown;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) {
        if (!create) return undefined;
        throw errors.pathNotViable(
          `Cannot create field '${part}' in element {${parts[i - 1]}: ${JSON.stringify(cur)}}`,
        );
      }
      next = cur[Number(part)];
      if (next === undefined) {
        if (!create) return undefined;
        while (cur.length < Number(part)) cur.push(null);
        next = {};
        cur[Number(part)] = next;
      }
    } else if (isPlainObject(cur)) {
      next = getField(cur, part);
      if (next === undefined) {
        if (!create) return undefined;
        next = {};
        setField(cur, part, next);
      }
    } else {
      if (!create) return undefined;
      throw errors.pathNotViable(
        `Cannot create field '${part}' in element {${parts[i - 1]}: ${JSON.stringify(cur)}}`,
      );
    }
    if (!Array.isArray(next) && !isPlainObject(next)) {
      if (!create) return undefined;
      throw errors.pathNotViable(
        `Cannot create field '${parts[i + 1]}' in element {${part}: ${JSON.stringify(next)}}`,
      );
    }
    cur = next;
  }
  const last = parts[parts.length - 1];
  if (Array.isArray(cur)) {
    if (!/^\d+$/.test(last)) {
      if (!create) return undefined;
      throw errors.pathNotViable(
        `Cannot create field '${last}' in element {${parts[parts.length - 2]}: [...]}`,
      );
    }
    const idx = Number(last);
    return { parent: cur, key: last, exists: idx < cur.length, value: cur[idx] };
  }
  if (!isPlainObject(cur)) return undefined;
  return {
    parent: cur,
    key: last,
    exists: Object.hasOwn(cur, last),
    value: getField(cur, last),
  };
}

function assign(slot: Slot, value: unknown): void {
  if (Array.isArray(slot.parent)) {
    const idx = Number(slot.key);
    while (slot.parent.length < idx) slot.parent.push(null);
    slot.parent[idx] = value;
  } else {
    setField(slot.parent, slot.key, value);
  }
}

function remove(slot: Slot): void {
  if (Array.isArray(slot.parent)) slot.parent[Number(slot.key)] = null;
  else delete slot.parent[slot.key];
}

function idOf(doc: Doc): string {
  return JSON.stringify(doc._id);
}

function applyPush(doc: Doc, slot: Slot, spec: unknown, path: string, addToSet: boolean): void {
  const current = slot.exists ? slot.value : [];
  if (!Array.isArray(current)) {
    throw new MongoServerError(
      2,
      'BadValue',
      `The field '${path}' must be an array but is of type ${typeName(current)} in document {_id: ${idOf(doc)}}`,
    );
  }
  const arr = current.slice();
  const hasEach = isPlainObject(spec) && '$each' in spec;
  const items = hasEach ? (spec as Doc).$each : [spec];
  if (!Array.isArray(items)) throw errors.badValue('The argument to $each must be an array');
  if (addToSet) {
    for (const item of items)
      if (!arr.some((x) => valuesEqual(x, item) && valueKey(x) === valueKey(item)))
        arr.push(cloneValue(item));
    assign(slot, arr);
    return;
  }
  const mods = hasEach ? (spec as Doc) : {};
  const position = mods.$position === undefined ? arr.length : Number(mods.$position);
  const at = position < 0 ? Math.max(0, arr.length + position) : Math.min(position, arr.length);
  arr.splice(at, 0, ...items.map(cloneValue));
  let result = arr;
  if (mods.$sort !== undefined) {
    const sortSpec = mods.$sort;
    if (isPlainObject(sortSpec)) result = sortDocuments(result as Doc[], sortSpec);
    else {
      const dir = Number(sortSpec);
      result = result.slice().sort((a, b) => dir * compareValues(a, b));
    }
  }
  if (mods.$slice !== undefined) {
    const n = Number(mods.$slice);
    result = n >= 0 ? result.slice(0, n) : result.slice(Math.max(0, result.length + n));
  }
  assign(slot, result);
}

function pullMatches(el: unknown, cond: unknown): boolean {
  if (isPlainObject(cond)) {
    const keys = Object.keys(cond);
    if (keys.length > 0 && keys[0].startsWith('$')) return matchDocument({ v: el }, { v: cond });
    return isPlainObject(el) && matchDocument(el, cond);
  }
  if (cond instanceof RegExp) return typeof el === 'string' && cond.test(el);
  return valuesEqual(el, cond);
}

function applyOperator(doc: Doc, op: string, path: string, arg: unknown, ctx: UpdateContext): void {
  const concrete = expandPath(doc, path.split('.'), ctx);
  for (const parts of concrete) {
    const cpath = parts.join('.');
    if (op === '$unset') {
      const slot = locate(doc, parts, false);
      if (slot?.exists) remove(slot);
      continue;
    }
    if (op === '$pull' || op === '$pullAll' || op === '$pop') {
      const slot = locate(doc, parts, false);
      if (!slot?.exists) continue;
      if (!Array.isArray(slot.value)) throw errors.badValue(`Cannot apply ${op} to a non-array value`);
      if (op === '$pop') assign(slot, Number(arg) === -1 ? slot.value.slice(1) : slot.value.slice(0, -1));
      else if (op === '$pullAll') {
        if (!Array.isArray(arg)) throw errors.badValue('$pullAll requires an array argument');
        assign(
          slot,
          slot.value.filter((el) => !arg.some((a) => valuesEqual(el, a))),
        );
      } else
        assign(
          slot,
          slot.value.filter((el) => !pullMatches(el, arg)),
        );
      continue;
    }
    const slot = locate(doc, parts, true);
    if (!slot) throw errors.pathNotViable(`Cannot apply ${op} to the path '${cpath}'`);
    switch (op) {
      case '$set':
      case '$setOnInsert':
        assign(slot, cloneValue(arg));
        break;
      case '$inc':
      case '$mul': {
        if (!numKind(arg))
          throw errors.typeMismatch(
            `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${cpath}: ${JSON.stringify(arg)}}`,
          );
        const current = slot.exists ? slot.value : 0;
        if (!numKind(current)) {
          throw errors.typeMismatch(
            `Cannot apply ${op} to a value of non-numeric type. {_id: ${idOf(doc)}} has the field '${cpath}' of non-numeric type ${typeName(current)}`,
          );
        }
        assign(
          slot,
          op === '$inc'
            ? addNumbers(current, arg)
            : slot.exists
              ? multiplyNumbers(current, arg)
              : multiplyNumbers(0, arg),
        );
        break;
      }
      case '$min':
      case '$max': {
        if (!slot.exists) assign(slot, cloneValue(arg));
        else {
          const c = compareValues(arg, slot.value);
          if ((op === '$min' && c < 0) || (op === '$max' && c > 0)) assign(slot, cloneValue(arg));
        }
        break;
      }
      case '$push':
        applyPush(doc, slot, arg, cpath, false);
        break;
      case '$addToSet':
        applyPush(doc, slot, arg, cpath, true);
        break;
      case '$currentDate': {
        const wantsTimestamp = isPlainObject(arg) && arg.$type === 'timestamp';
        assign(slot, wantsTimestamp ? Timestamp.fromBits(0, Math.floor(Date.now() / 1000)) : new Date());
        break;
      }
      default:
        throw errors.failedToParse(`Unknown modifier: ${op}`);
    }
  }
}

function ensureIdFirst(doc: Doc): Doc {
  const keys = Object.keys(doc);
  if (keys.length === 0 || keys[0] === '_id' || !('_id' in doc)) return doc;
  const out: Doc = { _id: doc._id };
  for (const k of keys) if (k !== '_id') setField(out, k, doc[k]);
  return out;
}

/** Returns the updated copy of `doc` (the input is not changed). */
export function applyUpdate(doc: Doc, update: Doc | Doc[], ctx: UpdateContext = {}): Doc {
  if (Array.isArray(update)) {
    const [result] = mingoPipeline(update).run([cloneValue(doc)]) as Doc[];
    if (!result) return doc;
    // A new root without an `_id` (`$replaceRoot: { newRoot: '$t' }`, `$unset: '_id'`) keeps the
    // document's own; only a different `_id` is a change of the immutable field.
    let out = result;
    if (out._id === undefined && doc._id !== undefined) {
      out = { _id: doc._id };
      for (const [k, v] of Object.entries(result)) if (k !== '_id') out[k] = v;
    }
    if (!valuesEqual(out._id, doc._id)) throw immutableId();
    return ensureIdFirst(out);
  }
  if (!isOperatorUpdate(update)) {
    if (
      '_id' in update &&
      doc._id !== undefined &&
      !(valuesEqual(update._id, doc._id) && valueKey(update._id) === valueKey(doc._id))
    )
      throw immutableId();
    const out: Doc = doc._id === undefined ? {} : { _id: doc._id };
    for (const [k, v] of Object.entries(update)) if (k !== '_id') setField(out, k, cloneValue(v));
    if (doc._id === undefined && '_id' in update) return ensureIdFirst({ _id: update._id, ...out });
    return out;
  }
  const out = cloneValue(doc);
  for (const [op, spec] of Object.entries(update)) {
    if (op === '$setOnInsert' && !ctx.isInsert) continue;
    const fields = spec as Doc;
    if (op === '$rename') {
      for (const [from, to] of Object.entries(fields)) {
        const src = locate(out, from.split('.'), false);
        if (!src?.exists) continue;
        const value = src.value;
        remove(src);
        const dst = locate(out, String(to).split('.'), true);
        if (dst) assign(dst, value);
      }
      continue;
    }
    for (const [path, arg] of Object.entries(fields)) {
      if ((path === '_id' || path.startsWith('_id.')) && !ctx.isInsert) {
        if (op === '$set' && valuesEqual(arg, doc._id)) continue;
        throw immutableId();
      }
      applyOperator(out, op, path, arg, ctx);
    }
  }
  if (!valuesEqual(out._id, doc._id) && !ctx.isInsert) throw immutableId();
  return ensureIdFirst(out);
}

/**
 * MongoDB refuses an `_id` holding a `$`-prefixed field name at any depth (52
 * DollarPrefixedFieldName), except a DBRef's `$ref` / `$id` / `$db`: such a key could not be
 * queried or updated. `what` prefixes the message as MongoDB does on the update paths.
 */
export function checkIdStorable(id: unknown, what = ''): void {
  const bad = dollarPrefixedName(id);
  if (bad !== undefined)
    throw new MongoServerError(52, 'DollarPrefixedFieldName', `${what}${bad} is not valid for storage.`);
}

function dollarPrefixedName(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const bad = dollarPrefixedName(v);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  const dbRef = keys[0] === '$ref' && typeof value.$ref === 'string' && keys[1] === '$id';
  for (const [i, key] of keys.entries()) {
    const refField = dbRef && (i < 2 || (i === 2 && key === '$db'));
    if (key.startsWith('$') && !refField) return key;
    const bad = dollarPrefixedName(value[key]);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

function immutableId(): MongoServerError {
  return errors.immutableField(
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );
}

/** Builds the document an upsert inserts: equality fields of the filter, then the update. */
export function buildUpsert(filter: Doc, update: Doc | Doc[], ctx: UpdateContext): Doc {
  const base: Doc = {};
  const seed = (f: Doc) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) v.forEach((c) => seed(c as Doc));
      if (k.startsWith('$')) continue;
      let value: unknown = v;
      if (isPlainObject(v)) {
        const keys = Object.keys(v);
        if (keys.length > 0 && keys[0].startsWith('$')) {
          if (keys.length === 1 && keys[0] === '$eq') value = v.$eq;
          else continue;
        }
      }
      const slot = locate(base, k.split('.'), true);
      if (slot) assign(slot, cloneValue(value));
    }
  };
  seed(filter);
  let doc: Doc;
  if (!Array.isArray(update) && !isOperatorUpdate(update)) {
    doc = applyUpdate({ _id: base._id }, update, { ...ctx, isInsert: true });
    if (doc._id === undefined) delete doc._id;
  } else {
    doc = applyUpdate(base, update, { ...ctx, isInsert: true });
  }
  if (doc._id === undefined) {
    delete doc._id;
    doc = { _id: new ObjectId(), ...doc };
  }
  checkIdStorable(doc._id, "_id fields may not contain '$'-prefixed fields: ");
  return ensureIdFirst(doc);
}

export { ensureIdFirst };
