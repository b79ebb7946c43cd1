// find() projections: inclusion/exclusion trees (document field order kept), `$slice`,
// `$elemMatch` and positional `field.$`. Computed fields are delegated to mingo's $project.
import { mingoPipeline } from './expression';
import { errors } from '../errors';
import { matchDocument } from './match';
import { Doc, cloneValue, getField, isPlainObject, setField } from './values';

type Tree = { [k: string]: Tree | true };

// Trees are keyed by the client's field names: without a prototype, `tree['constructor']` is not
// Object and `tree['__proto__'] = {}` is an ordinary key, not a write to Object.prototype.
function newTree(): Tree {
  return Object.create(null) as Tree;
}

function isFlag(v: unknown): boolean {
  return (
    typeof v === 'number' ||
    typeof v === 'boolean' ||
    (v !== null && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Long')
  );
}

function addPath(tree: Tree, parts: string[]): void {
  let cur = tree;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]];
    if (next === true) return;
    if (!next) cur[parts[i]] = newTree();
    cur = cur[parts[i]] as Tree;
  }
  cur[parts[parts.length - 1]] = true;
}

function include(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value))
    return value.filter((v) => isPlainObject(v) || Array.isArray(v)).map((v) => include(v, tree));
  if (!isPlainObject(value)) return undefined;
  const out: Doc = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = tree[k];
    if (sub === undefined) continue;
    if (sub === true) setField(out, k, cloneValue(v));
    else {
      const inner = include(v, sub);
      if (inner !== undefined) setField(out, k, inner);
    }
  }
  return out;
}

function exclude(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value))
    return value.map((v) => (isPlainObject(v) || Array.isArray(v) ? exclude(v, tree) : v));
  if (!isPlainObject(value)) return value;
  const out: Doc = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = tree[k];
    if (sub === true) continue;
    setField(out, k, sub === undefined ? cloneValue(v) : exclude(v, sub));
  }
  return out;
}

function sliceArray(arr: unknown[], spec: unknown): unknown[] {
  if (Array.isArray(spec)) {
    const [skip, limit] = spec.map(Number);
    const start = skip < 0 ? Math.max(0, arr.length + skip) : skip;
    return arr.slice(start, start + limit);
  }
  const n = Number(spec);
  return n >= 0 ? arr.slice(0, n) : arr.slice(Math.max(0, arr.length + n));
}

export function projectDocument(doc: Doc, projection: Doc | undefined, position?: number): Doc {
  if (!projection || Object.keys(projection).length === 0) return doc;
  const entries = Object.entries(projection);
  const computed = entries.some(
    ([, v]) => !isFlag(v) && !(isPlainObject(v) && ('$slice' in v || '$elemMatch' in v)),
  );
  if (computed) {
    const [out] = mingoPipeline([{ $project: projection }]).run([doc]);
    return out as Doc;
  }
  const specials: [string, Doc][] = [];
  const positional: string[] = [];
  const tree = newTree();
  let inclusion: boolean | undefined;
  let includeId = true;
  for (const [path, v] of entries) {
    if (isPlainObject(v)) {
      specials.push([path, v]);
      continue;
    }
    const on = Boolean(typeof v === 'object' ? Number(v) : v);
    if (path === '_id') {
      includeId = on;
      continue;
    }
    if (path.endsWith('.$')) {
      positional.push(path.slice(0, -2));
      addPath(tree, path.slice(0, -2).split('.'));
      inclusion = true;
      continue;
    }
    if (inclusion !== undefined && inclusion !== on) {
      throw errors.location(
        31254,
        `Cannot do ${on ? 'inclusion' : 'exclusion'} on field ${path} in ${inclusion ? 'inclusion' : 'exclusion'} projection`,
      );
    }
    inclusion = on;
    addPath(tree, path.split('.'));
  }
  if (inclusion === undefined && specials.some(([, v]) => '$elemMatch' in v)) inclusion = true;
  for (const [path, v] of specials)
    if ('$elemMatch' in v || (inclusion && '$slice' in v)) addPath(tree, path.split('.'));
  let out: Doc;
  if (inclusion) {
    if (includeId) tree._id = true;
    else delete tree._id;
    out = include(doc, tree) as Doc;
  } else {
    if (!includeId) tree._id = true;
    out = exclude(doc, tree) as Doc;
  }
  for (const [path, v] of specials) {
    const value = getField(doc, path);
    if ('$slice' in v && Array.isArray(value)) {
      setField(out, path, sliceArray(value, v.$slice));
    }
    if ('$elemMatch' in v) {
      const found = Array.isArray(value)
        ? value.find((el) => matchDocument({ x: el }, { x: { $elemMatch: v.$elemMatch } }))
        : undefined;
      if (found === undefined) delete out[path];
      else setField(out, path, [cloneValue(found)]);
    }
  }
  for (const path of positional) {
    const parts = path.split('.');
    let src: unknown = doc;
    let dst: unknown = out;
    for (let i = 0; i < parts.length - 1 && isPlainObject(src) && isPlainObject(dst); i++) {
      src = getField(src, parts[i]);
      dst = getField(dst, parts[i]);
    }
    const last = parts[parts.length - 1];
    if (!isPlainObject(src) || !isPlainObject(dst)) continue;
    const arr = getField(src, last);
    if (Array.isArray(arr) && position !== undefined && position < arr.length)
      setField(dst, last, [cloneValue(arr[position])]);
  }
  return out;
}
