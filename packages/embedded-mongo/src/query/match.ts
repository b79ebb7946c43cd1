// Query matcher with MongoDB semantics (array expansion along dotted paths, cross-type rules,
// positional capture for the `$` update operator). `$expr` is delegated to mingo.
import { activeCollator } from './collation';
import { evaluate, truthy } from './expression';
import { MongoServerError, errors } from '../errors';
import {
  Doc,
  TYPE_NUMBERS,
  bsonType,
  compareValues,
  getField,
  isPlainObject,
  toNumber,
  typeNames,
  typeRank,
  valuesEqual,
} from './values';

interface Leaf {
  value: unknown;
  pos: number | undefined;
  expanded: boolean;
}

export interface MatchState {
  /** Index of the element matched in the first array of the path, for the positional `$` operator. */
  position?: number;
}

function resolveLeaves(
  value: unknown,
  parts: string[],
  i: number,
  pos: number | undefined,
  out: Leaf[],
): void {
  if (i === parts.length) {
    out.push({ value, pos, expanded: false });
    if (Array.isArray(value))
      value.forEach((el, idx) => out.push({ value: el, pos: pos ?? idx, expanded: true }));
    return;
  }
  const part = parts[i];
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) {
      const idx = Number(part);
      resolveLeaves(value[idx], parts, i + 1, pos, out);
    }
    // Nested arrays are not traversed by a field name, as in MongoDB.
    value.forEach((el, idx) => {
      if (isPlainObject(el)) resolveLeaves(getField(el, part), parts, i + 1, pos ?? idx, out);
    });
    return;
  }
  if (isPlainObject(value)) {
    resolveLeaves(getField(value, part), parts, i + 1, pos, out);
    return;
  }
  out.push({ value: undefined, pos, expanded: false });
}

export function leavesOf(doc: Doc, path: string): Leaf[] {
  const out: Leaf[] = [];
  resolveLeaves(doc, path.split('.'), 0, undefined, out);
  return out;
}

function toRegExp(v: unknown, options?: string): RegExp {
  if (v instanceof RegExp) return options ? new RegExp(v.source, options) : v;
  if (bsonType(v) === 'BSONRegExp') {
    const r = v as { pattern: string; options: string };
    return new RegExp(r.pattern, (options ?? r.options).replace(/[^imsu]/g, ''));
  }
  if (typeof v === 'string') return new RegExp(v, (options ?? '').replace(/[^imsu]/g, ''));
  throw errors.badValue('$regex has to be a string');
}

function isRegex(v: unknown): boolean {
  return v instanceof RegExp || bsonType(v) === 'BSONRegExp';
}

function hasOperatorKeys(v: unknown): v is Doc {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys[0].startsWith('$');
}

type LeafTest = (leaf: Leaf) => boolean;

function comparable(a: unknown, b: unknown): boolean {
  return typeRank(a) === typeRank(b);
}

function eqTest(q: unknown): LeafTest {
  if (isRegex(q)) {
    const re = toRegExp(q);
    return (l) =>
      (typeof l.value === 'string' && re.test(l.value)) ||
      (isRegex(l.value) && String(l.value) === String(q));
  }
  return (l) => valuesEqual(l.value, q);
}

function anyLeaf(leaves: Leaf[], test: LeafTest, state?: MatchState): boolean {
  for (const l of leaves) {
    if (test(l)) {
      if (state && l.pos !== undefined && state.position === undefined) state.position = l.pos;
      return true;
    }
  }
  return false;
}

function matchOperators(leaves: Leaf[], ops: Doc, state: MatchState | undefined, path: string): boolean {
  for (const [op, q] of Object.entries(ops)) {
    if (!matchOperator(leaves, op, q, ops, state, path)) return false;
  }
  return true;
}

function matchOperator(
  leaves: Leaf[],
  op: string,
  q: unknown,
  ops: Doc,
  state: MatchState | undefined,
  path: string,
): boolean {
  switch (op) {
    case '$eq':
      return anyLeaf(leaves, (l) => valuesEqual(l.value, q), state);
    case '$ne':
      return !anyLeaf(leaves, (l) => valuesEqual(l.value, q));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const test = (l: Leaf) => {
        if (!comparable(l.value, q)) return false;
        const c = compareValues(l.value, q);
        return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
      };
      return anyLeaf(leaves, test, state);
    }
    case '$in': {
      if (!Array.isArray(q)) throw errors.badValue('$in needs an array');
      const tests = q.map(eqTest);
      return anyLeaf(leaves, (l) => tests.some((t) => t(l)), state);
    }
    case '$nin': {
      if (!Array.isArray(q)) throw errors.badValue('$nin needs an array');
      const tests = q.map(eqTest);
      return !anyLeaf(leaves, (l) => tests.some((t) => t(l)));
    }
    case '$exists': {
      const exists = leaves.some((l) => l.value !== undefined && !l.expanded);
      return q ? exists : !exists;
    }
    case '$type': {
      const wanted = (Array.isArray(q) ? q : [q]).map((t) =>
        typeof t === 'number' ? TYPE_NUMBERS[t] : String(t),
      );
      return anyLeaf(
        leaves,
        (l) => {
          if (l.value === undefined) return false;
          const names = typeNames(l.value);
          return wanted.some((w) => names.includes(w));
        },
        state,
      );
    }
    case '$regex': {
      const re = toRegExp(q, typeof ops.$options === 'string' ? ops.$options : undefined);
      return anyLeaf(leaves, (l) => typeof l.value === 'string' && re.test(l.value), state);
    }
    case '$options':
      return true;
    case '$size': {
      const n = toNumber(q);
      return leaves.some((l) => !l.expanded && Array.isArray(l.value) && l.value.length === n);
    }
    case '$all': {
      if (!Array.isArray(q)) throw errors.badValue('$all needs an array');
      if (q.length === 0) return false;
      return q.every((item) => {
        if (isPlainObject(item) && '$elemMatch' in item)
          return matchOperator(leaves, '$elemMatch', item.$elemMatch, item, state, path);
        return anyLeaf(leaves, eqTest(item), state);
      });
    }
    case '$elemMatch': {
      if (!isPlainObject(q)) throw errors.badValue('$elemMatch needs an Object');
      const operatorForm =
        hasOperatorKeys(q) && !['$and', '$or', '$nor', '$expr'].includes(Object.keys(q)[0]);
      for (const l of leaves) {
        if (l.expanded || !Array.isArray(l.value)) continue;
        for (let idx = 0; idx < l.value.length; idx++) {
          const el = l.value[idx];
          const ok = operatorForm
            ? matchOperators(
                [
                  { value: el, pos: undefined, expanded: false },
                  ...(Array.isArray(el) ? el.map((x) => ({ value: x, pos: undefined, expanded: true })) : []),
                ],
                q,
                undefined,
                path,
              )
            : isPlainObject(el) && matchDocument(el, q);
          if (ok) {
            if (state && state.position === undefined) state.position = l.pos ?? idx;
            return true;
          }
        }
      }
      return false;
    }
    case '$not': {
      if (isRegex(q)) return !anyLeaf(leaves, eqTest(q));
      if (!isPlainObject(q)) throw errors.badValue('$not needs a regex or a document');
      return !matchOperators(leaves, q, undefined, path);
    }
    case '$mod': {
      if (!Array.isArray(q) || q.length !== 2)
        throw errors.badValue('malformed mod, needs to be an array of 2 numbers');
      const d = toNumber(q[0]);
      const r = toNumber(q[1]);
      return anyLeaf(
        leaves,
        (l) => typeRank(l.value) === 2 && Math.trunc(toNumber(l.value)) % d === r,
        state,
      );
    }
    case '$comment':
      return true;
    default:
      throw new MongoServerError(2, 'BadValue', `unknown operator: ${op}`);
  }
}

function matchField(doc: Doc, path: string, cond: unknown, state?: MatchState): boolean {
  const leaves = leavesOf(doc, path);
  if (hasOperatorKeys(cond)) return matchOperators(leaves, cond, state, path);
  return anyLeaf(leaves, eqTest(cond), state);
}

/** True when `doc` matches the filter. Fills `state.position` for the positional operator. */
export function matchDocument(doc: Doc, filter: Doc, state?: MatchState): boolean {
  for (const [key, cond] of Object.entries(filter)) {
    switch (key) {
      case '$and':
        if (!Array.isArray(cond) || cond.length === 0) throw errors.badValue('$and must be a nonempty array');
        if (!cond.every((c) => matchDocument(doc, c as Doc, state))) return false;
        break;
      case '$or':
        if (!Array.isArray(cond) || cond.length === 0) throw errors.badValue('$or must be a nonempty array');
        if (!cond.some((c) => matchDocument(doc, c as Doc, state))) return false;
        break;
      case '$nor':
        if (!Array.isArray(cond) || cond.length === 0) throw errors.badValue('$nor must be a nonempty array');
        if (cond.some((c) => matchDocument(doc, c as Doc))) return false;
        break;
      case '$expr':
        // mingo's expressions compare strings binarily: refused rather than answered differently.
        if (activeCollator()) throw errors.notSupported('$expr with a collation');
        if (!truthy(evaluate(doc, cond))) return false;
        break;
      case '$comment':
        break;
      case '$where':
      case '$text':
      case '$jsonSchema':
        throw errors.badValue(`${key} is not supported by the embedded server`);
      default:
        if (key.startsWith('$')) throw errors.badValue(`unknown top level operator: ${key}`);
        if (!matchField(doc, key, cond, state)) return false;
    }
  }
  return true;
}

/** Validates a filter eagerly so malformed filters error even on empty collections. */
export function compileFilter(filter: unknown): Doc {
  if (filter === undefined || filter === null) return {};
  if (!isPlainObject(filter)) throw errors.typeMismatch('filter must be an object');
  return filter;
}
