// Aggregation pipeline. Stages where numeric types or index-free matching matter ($match, $sort,
// $group, $lookup, $unwind, $count, $facet...) are implemented here; expression-only stages
// ($project, $addFields, $replaceRoot, ...) run on mingo.
import { errors } from '../errors';
import { evaluate, mingoPipeline } from './expression';
import { NumericSum } from './arith';
import { leavesOf, matchDocument } from './match';
import { sortBy, sortDocuments } from './sort';
import { Doc, cloneValue, compareValues, getField, isPlainObject, setField, valueKey } from './values';

export type CollectionResolver = (name: string) => Doc[];

class Accumulator {
  private sum = new NumericSum();
  private values: unknown[] = [];
  private keys = new Set<string>();
  private best: unknown = undefined;
  private seen = false;
  constructor(
    private readonly op: string,
    private readonly expr: unknown,
  ) {}

  add(doc: Doc): void {
    const v = this.op === '$count' ? 1 : evaluate(doc, this.expr);
    switch (this.op) {
      case '$sum':
      case '$avg':
      case '$count':
        this.sum.add(v);
        break;
      case '$min':
      case '$max':
        if (v === null || v === undefined) break;
        if (
          this.best === undefined ||
          (this.op === '$min' ? compareValues(v, this.best) < 0 : compareValues(v, this.best) > 0)
        )
          this.best = v;
        break;
      case '$first':
        if (!this.seen) this.best = v === undefined ? null : v;
        break;
      case '$last':
        this.best = v === undefined ? null : v;
        break;
      case '$push':
        if (v !== undefined) this.values.push(v);
        break;
      case '$addToSet': {
        if (v === undefined) break;
        const k = valueKey(v);
        if (!this.keys.has(k)) {
          this.keys.add(k);
          this.values.push(v);
        }
        break;
      }
      case '$mergeObjects':
        if (isPlainObject(v)) this.values.push(v);
        break;
      default:
        throw errors.location(15952, `unknown group operator '${this.op}'`);
    }
    this.seen = true;
  }

  result(): unknown {
    switch (this.op) {
      case '$sum':
      case '$count':
        return this.sum.value();
      case '$avg':
        return this.sum.average();
      case '$min':
      case '$max':
        return this.best === undefined ? null : this.best;
      case '$first':
      case '$last':
        return this.best === undefined ? null : this.best;
      case '$mergeObjects':
        return Object.assign({}, ...(this.values as Doc[]));
      default:
        return this.values;
    }
  }
}

function group(docs: Doc[], spec: Doc): Doc[] {
  if (!('_id' in spec)) throw errors.location(15955, 'a group specification must include an _id');
  const fields = Object.entries(spec).filter(([k]) => k !== '_id');
  for (const [name, acc] of fields) {
    if (!isPlainObject(acc) || Object.keys(acc).length !== 1)
      throw errors.location(40234, `The field '${name}' must be an accumulator object`);
  }
  const groups = new Map<string, { id: unknown; accs: Accumulator[] }>();
  for (const doc of docs) {
    let id = evaluate(doc, spec._id);
    if (id === undefined) id = null;
    const k = valueKey(id);
    let g = groups.get(k);
    if (!g) {
      g = {
        id,
        accs: fields.map(
          ([, acc]) => new Accumulator(Object.keys(acc as Doc)[0], Object.values(acc as Doc)[0]),
        ),
      };
      groups.set(k, g);
    }
    for (const a of g.accs) a.add(doc);
  }
  return [...groups.values()].map((g) => {
    const out: Doc = { _id: g.id };
    fields.forEach(([name], i) => setField(out, name, g.accs[i].result()));
    return out;
  });
}

function unwind(docs: Doc[], spec: unknown): Doc[] {
  const opts: Doc = typeof spec === 'string' ? { path: spec } : (spec as Doc);
  const pathSpec = String(opts.path ?? '');
  if (!pathSpec.startsWith('$'))
    throw errors.location(28818, "path option to $unwind stage should be prefixed with a '$'");
  const path = pathSpec.slice(1);
  const keepEmpty = opts.preserveNullAndEmptyArrays === true;
  const indexField = typeof opts.includeArrayIndex === 'string' ? opts.includeArrayIndex : undefined;
  const out: Doc[] = [];
  for (const doc of docs) {
    const parts = path.split('.');
    const value = parts.reduce<unknown>((v, p) => (isPlainObject(v) ? getField(v, p) : undefined), doc);
    const withValue = (v: unknown, idx: number | null): Doc => {
      const copy = cloneValue(doc);
      let cur: Doc = copy;
      for (let i = 0; i < parts.length - 1; i++) cur = getField(cur, parts[i]) as Doc;
      if (v === undefined) delete cur[parts[parts.length - 1]];
      else setField(cur, parts[parts.length - 1], v);
      if (indexField) setField(copy, indexField, idx);
      return copy;
    };
    if (Array.isArray(value)) {
      if (value.length === 0) {
        if (keepEmpty) out.push(withValue(undefined, null));
      } else value.forEach((v, i) => out.push(withValue(v, i)));
    } else if (value === undefined || value === null) {
      if (keepEmpty) out.push(withValue(value === null ? null : undefined, null));
    } else out.push(withValue(value, null));
  }
  return out;
}

function lookup(docs: Doc[], spec: Doc, resolve: CollectionResolver): Doc[] {
  const as = String(spec.as);
  if (spec.pipeline !== undefined || spec.let !== undefined) {
    return mingoPipeline([{ $lookup: spec }], { collectionResolver: resolve }).run(docs) as Doc[];
  }
  const foreign = resolve(String(spec.from));
  const byKey = new Map<string, Doc[]>();
  for (const f of foreign) {
    const leaves = leavesOf(f, String(spec.foreignField));
    const keys = new Set(leaves.map((l) => valueKey(l.value)));
    for (const k of keys) {
      const list = byKey.get(k) ?? [];
      list.push(f);
      byKey.set(k, list);
    }
  }
  return docs.map((doc) => {
    const locals = leavesOf(doc, String(spec.localField));
    const keys = new Set(locals.filter((l) => !Array.isArray(l.value)).map((l) => valueKey(l.value)));
    if (locals.length === 0) keys.add(valueKey(null));
    const matched = new Set<Doc>();
    for (const k of keys) for (const f of byKey.get(k) ?? []) matched.add(f);
    const copy = cloneValue(doc);
    setField(copy, as, [...matched].map(cloneValue));
    return copy;
  });
}

export function runPipeline(input: Doc[], pipeline: Doc[], resolve: CollectionResolver): Doc[] {
  let docs = input;
  for (let i = 0; i < pipeline.length; i++) {
    const stage = pipeline[i];
    const keys = Object.keys(stage);
    if (keys.length !== 1)
      throw errors.location(40323, 'A pipeline stage specification object must contain exactly one field.');
    const name = keys[0];
    const spec = stage[name];
    switch (name) {
      case '$match':
        docs = docs.filter((d) => matchDocument(d, spec as Doc));
        break;
      case '$sort': {
        // $sort followed by $limit only needs the top of the order (MongoDB coalesces them too).
        const next = pipeline[i + 1];
        const keep = next && typeof next.$limit === 'number' ? next.$limit : undefined;
        docs = sortBy(docs, spec as Doc, (d) => d, keep);
        break;
      }
      case '$limit':
        docs = docs.slice(0, Number(spec));
        break;
      case '$skip':
        docs = docs.slice(Number(spec));
        break;
      case '$count':
        docs = docs.length === 0 ? [] : [{ [String(spec)]: docs.length }];
        break;
      case '$group':
        docs = group(docs, spec as Doc);
        break;
      case '$unwind':
        docs = unwind(docs, spec);
        break;
      case '$lookup':
        docs = lookup(docs, spec as Doc, resolve);
        break;
      case '$sortByCount':
        docs = sortDocuments(group(docs, { _id: spec, count: { $sum: 1 } }), { count: -1 });
        break;
      case '$facet': {
        const out: Doc = {};
        for (const [field, sub] of Object.entries(spec as Doc))
          setField(out, field, runPipeline(docs, sub as Doc[], resolve));
        docs = [out];
        break;
      }
      case '$out':
      case '$merge':
        throw errors.location(31030, `${name} is not supported by the embedded server`);
      case '$listSearchIndexes':
        throw errors.atlasOnly();
      case '$listLocalSessions':
        throw errors.location(40602, '$listLocalSessions is only valid as the first stage in a pipeline');
      case '$search':
      case '$searchMeta':
      case '$vectorSearch':
        throw errors.location(6047401, `${name} stage is only allowed on MongoDB Atlas`);
      default:
        if (UNSUPPORTED_STAGES.has(name)) throw errors.notSupported(`the ${name} stage`);
        docs = mingoPipeline([stage], { collectionResolver: resolve }).run(docs) as Doc[];
    }
  }
  return docs;
}

// Stages MongoDB has that need server state this server does not keep (change streams, geo
// indexes, statistics, sessions): refused rather than handed to mingo.
const UNSUPPORTED_STAGES = new Set([
  '$changeStream',
  '$changeStreamSplitLargeEvent',
  '$geoNear',
  '$collStats',
  '$indexStats',
  '$currentOp',
  '$listSessions',
  '$planCacheStats',
  '$listCatalog',
  '$shardedDataDistribution',
  '$queryStats',
]);
