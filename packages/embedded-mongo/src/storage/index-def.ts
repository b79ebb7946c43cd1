// Secondary indexes kept as hash maps from canonical key to document ids: equality lookups
// (the common point query) never scan. Multikey: each array element gets its own entry.
import { MongoServerError, duplicateKey, errors } from '../errors';
import { CollationClasses, parseCollation, withCollation } from '../query/collation';
import { matchDocument } from '../query/match';
import { Doc, compareValues, getField, isPlainObject, valueKey } from '../query/values';
import { IndexEntry, OrderedEntries } from './ordered';

export interface IndexSpec {
  v: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
  /** MongoDB's full collation document; absent for the simple (binary) collation. */
  collation?: Doc;
  [option: string]: unknown;
}

function fieldValues(doc: Doc, path: string): unknown[] {
  if (!path.includes('.')) {
    // Fast path for the common top-level scalar field.
    const v = getField(doc, path);
    if (!Array.isArray(v)) return [v];
  }
  const out: unknown[] = [];
  const walk = (v: unknown, parts: string[], i: number) => {
    if (i === parts.length) {
      if (Array.isArray(v)) {
        if (v.length === 0) out.push(undefined);
        else for (const el of v) out.push(el);
      } else out.push(v);
      return;
    }
    if (Array.isArray(v)) {
      if (/^\d+$/.test(parts[i])) {
        walk(v[Number(parts[i])], parts, i + 1);
        return;
      }
      let any = false;
      for (const el of v) {
        if (isPlainObject(el)) {
          any = true;
          walk(getField(el, parts[i]), parts, i + 1);
        }
      }
      if (!any) out.push(undefined);
      return;
    }
    walk(isPlainObject(v) ? getField(v, parts[i]) : undefined, parts, i + 1);
  };
  walk(doc, path.split('.'), 0);
  return out;
}

export class SecondaryIndex {
  readonly spec: IndexSpec;
  readonly fields: string[];
  /** Canonical key → ids (canonical _id keys) of the documents carrying it. */
  readonly entries = new Map<string, Set<string>>();
  /** For compound indexes: first-field key → ids, so a filter pinning only the prefix still avoids a scan. */
  readonly prefixEntries = new Map<string, Set<string>>();

  /**
   * Whether some document has more than one key here (an array field): a range on such an index
   * may use one bound only, since different elements may satisfy `$gt` and `$lt`.
   */
  multikey = false;
  /**
   * The first field's distinct keys in BSON order with a value of each, for range lookups: built
   * on the first range query and dropped whenever a first-field key appears or disappears, so
   * writes pay nothing for it.
   */
  private orderedFirstKeys: { keys: string[]; values: unknown[] } | undefined;
  /**
   * Every document's entry in key order (the key pattern's directions, then RecordId), for walks
   * that answer a sort or a range after an equality prefix. Built on the first such query, then
   * kept up to date by every write; never on a multikey index or one with a collation.
   */
  private orderedEntries: OrderedEntries | undefined;
  /** Each field's direction in the key pattern: 1 ascending, -1 descending. */
  readonly directions: number[];

  /**
   * A field path with a numeric component (`a.0`): the matcher reads it as an array position and as
   * a field name `0` inside each element, the keys hold only the position, so queries scan.
   */
  private readonly positionalPath: boolean;

  /** The index's collation (absent: binary); a query uses the index only under the same one. */
  readonly collator?: Intl.Collator;
  /** Under a collation, strings it calls equal share one key (their class's representative). */
  private readonly classes?: CollationClasses;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.directions = this.fields.map((f) => (Number(spec.key[f]) < 0 ? -1 : 1));
    this.positionalPath = this.fields.some((f) => /(^|\.)\d+(\.|$)/.test(f));
    const collation = parseCollation(spec.collation);
    if (collation) {
      this.collator = collation.collator;
      this.classes = new CollationClasses(collation.collator);
    }
    const kinds = Object.values(spec.key).filter((d) => typeof d === 'string' && d !== 'hashed');
    if (kinds.length > 0)
      throw errors.indexNotAllowed(`Index type ${String(kinds[0])} is not supported by the embedded server`);
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /**
   * The key of one field value: binary, or under the index's collation with every string replaced
   * by its class's representative (`add`: a new class is remembered, as when a document is keyed).
   */
  keyOf(v: unknown, add = true): string {
    return this.classes ? valueKey(this.classes.map(v, add)) : valueKey(v);
  }

  /** Keys this document contributes, or an empty list when the index skips it (sparse/partial). */
  keysFor(doc: Doc): string[] {
    // The filter compares under the index's collation, whatever the writing command's is.
    const pfe = this.spec.partialFilterExpression;
    if (pfe && !withCollation(this.collator, () => matchDocument(doc, pfe))) return [];
    if (this.fields.length === 1 && !this.spec.sparse) {
      const values = fieldValues(doc, this.fields[0]);
      if (values.length === 1) return [this.keyOf(values[0])];
    }
    const perField = this.fields.map((f) => fieldValues(doc, f));
    if (this.spec.sparse && perField.every((vals) => vals.every((v) => v === undefined))) return [];
    let keys: string[] = [''];
    for (let i = 0; i < perField.length; i++) {
      const parts = [...new Set(perField[i].map((v) => this.keyOf(v)))];
      const next: string[] = [];
      for (const k of keys) for (const p of parts) next.push(i === 0 ? p : k + '\u0000' + p);
      keys = next;
    }
    return [...new Set(keys)];
  }

  /** The field values that produced `key` in `doc`, for duplicate-key errors. */
  keyValueFor(doc: Doc, key: string): Doc {
    const wanted = key.split('\u0000');
    const out: Doc = {};
    this.fields.forEach((f, i) => {
      const vals = fieldValues(doc, f);
      const hit = vals.find((v) => this.keyOf(v, false) === wanted[i]);
      out[f] = hit === undefined ? null : hit;
    });
    return out;
  }

  /** The 11000 error for `doc` colliding on `key` here. */
  duplicate(ns: string, doc: Doc, key: string): MongoServerError {
    return duplicateKey(ns, this.spec.name, this.spec.key, this.keyValueFor(doc, key), this.spec.collation);
  }

  /** Adds a document's keys; `doc` and `rid` (its RecordId) keep the ordered entries, once built. */
  add(id: string, keys: string[], doc?: Doc, rid?: number): void {
    if (keys.length > 1) {
      this.multikey = true;
      this.orderedEntries = undefined;
    }
    for (const k of keys) {
      let newFirstKey = addTo(this.entries, k, id);
      if (this.fields.length > 1) newFirstKey = addTo(this.prefixEntries, prefixOf(k), id);
      if (newFirstKey) this.orderedFirstKeys = undefined;
    }
    const ordered = this.orderedEntries;
    if (!ordered || keys.length === 0) return;
    if (!doc || rid === undefined) this.orderedEntries = undefined;
    else withCollation(undefined, () => ordered.insert(this.entryOf(doc, id, rid)));
  }

  remove(id: string, keys: string[], doc?: Doc, rid?: number): void {
    for (const k of keys) {
      let goneFirstKey = removeFrom(this.entries, k, id);
      if (this.fields.length > 1) goneFirstKey = removeFrom(this.prefixEntries, prefixOf(k), id);
      if (goneFirstKey) this.orderedFirstKeys = undefined;
    }
    const ordered = this.orderedEntries;
    if (!ordered || keys.length === 0) return;
    if (
      !doc ||
      rid === undefined ||
      !withCollation(undefined, () => ordered.delete(this.entryOf(doc, id, rid)))
    )
      this.orderedEntries = undefined;
  }

  /**
   * Whether walking the index in key order can answer sorts and ranges on any of its fields (a
   * sparse or partial one only for the filters whose documents it holds every one of).
   */
  get walkable(): boolean {
    return this.answersQueries && !this.multikey && !this.collator;
  }

  /**
   * The entries in key order; `all` lists every document with its RecordId, read when they are
   * first needed. Only for a walkable index.
   */
  ordered(all: () => Iterable<{ id: string; doc: Doc; rid: number }>): OrderedEntries {
    if (this.orderedEntries) return this.orderedEntries;
    const entries: IndexEntry[] = [];
    // A sparse or partial index has no entry for the documents it leaves out.
    const complete = !this.spec.sparse && !this.spec.partialFilterExpression;
    for (const { id, doc, rid } of all())
      if (complete || this.keysFor(doc).length > 0) entries.push(this.entryOf(doc, id, rid));
    this.orderedEntries = withCollation(undefined, () => OrderedEntries.build(entries, this.compareEntries));
    return this.orderedEntries;
  }

  /** Key order: each field by BSON order in its direction, then RecordId (as MongoDB's index keys). */
  readonly compareEntries = (a: IndexEntry, b: IndexEntry): number => {
    for (let i = 0; i < this.directions.length; i++) {
      const c = compareValues(a.vals[i], b.vals[i]);
      if (c !== 0) return c * this.directions[i];
    }
    return a.rid - b.rid;
  };

  private entryOf(doc: Doc, id: string, rid: number): IndexEntry {
    return { vals: this.fields.map((f) => fieldValues(doc, f)[0]), rid, id };
  }

  /**
   * Ids of the documents whose first indexed field has a value within [lower, upper] in BSON order
   * (either bound may be absent): walks the first field's keys in order from the lower bound.
   * `docOf` gives a document of an id, to read the value a key stands for.
   */
  rangeLookup(bounds: RangeBounds, docOf: (id: string) => Doc): { ids: Set<string>; keysExamined: number } {
    const ordered = this.orderedKeys(docOf);
    const byFirst = this.fields.length > 1 ? this.prefixEntries : this.entries;
    let from = 0;
    if (bounds.lower !== undefined) {
      // The first key at or above the lower bound (binary search).
      let hi = ordered.values.length;
      while (from < hi) {
        const mid = (from + hi) >>> 1;
        const c = compareValues(ordered.values[mid], bounds.lower);
        if (c < 0 || (c === 0 && bounds.lowerExclusive)) from = mid + 1;
        else hi = mid;
      }
    }
    const ids = new Set<string>();
    let keysExamined = 0;
    for (let i = from; i < ordered.keys.length; i++) {
      if (bounds.upper !== undefined) {
        const c = compareValues(ordered.values[i], bounds.upper);
        if (c > 0 || (c === 0 && bounds.upperExclusive)) break;
      }
      keysExamined++;
      for (const id of byFirst.get(ordered.keys[i]) ?? []) ids.add(id);
    }
    return { ids, keysExamined };
  }

  private orderedKeys(docOf: (id: string) => Doc): { keys: string[]; values: unknown[] } {
    if (this.orderedFirstKeys) return this.orderedFirstKeys;
    const byFirst = this.fields.length > 1 ? this.prefixEntries : this.entries;
    const pairs: Array<{ key: string; value: unknown }> = [];
    for (const [key, ids] of byFirst) {
      const [id] = ids;
      const values = fieldValues(docOf(id), this.fields[0]);
      pairs.push({ key, value: values.find((v) => this.keyOf(v, false) === key) ?? values[0] });
    }
    pairs.sort((a, b) => compareValues(a.value, b.value));
    this.orderedFirstKeys = { keys: pairs.map((p) => p.key), values: pairs.map((p) => p.value) };
    return this.orderedFirstKeys;
  }

  lookupPrefix(value: unknown): Set<string> | undefined {
    return this.prefixEntries.get(this.keyOf(value, false));
  }

  /**
   * Exact-key lookup; only valid when the filter pins every field (and, for a sparse or partial index,
   * needs documents the index holds: see Collection.usable).
   */
  lookup(values: unknown[]): Set<string> | undefined {
    if (values.length === 1) return this.entries.get(this.keyOf(values[0], false));
    return this.entries.get(values.map((v) => this.keyOf(v, false)).join('\u0000'));
  }

  /** Whether the index holds every document and answers queries: `{ field: null }` may use it. */
  get usableForLookup(): boolean {
    return !this.spec.sparse && !this.spec.partialFilterExpression && this.answersQueries;
  }

  /** Whether any query may use the index (a sparse or partial one: see Collection.usable). */
  get answersQueries(): boolean {
    return !this.positionalPath;
  }
}

function prefixOf(key: string): string {
  const cut = key.indexOf('\u0000');
  return cut < 0 ? key : key.slice(0, cut);
}

/** Adds `id` under `key`; true when the key is new. */
function addTo(map: Map<string, Set<string>>, key: string, id: string): boolean {
  const set = map.get(key);
  if (set) {
    set.add(id);
    return false;
  }
  map.set(key, new Set([id]));
  return true;
}

/** Removes `id` from `key`; true when the key is gone. */
function removeFrom(map: Map<string, Set<string>>, key: string, id: string): boolean {
  const set = map.get(key);
  if (!set) return false;
  set.delete(id);
  if (set.size > 0) return false;
  map.delete(key);
  return true;
}

/** Bounds of a range predicate on an index's first field ($gt is an exclusive lower bound...). */
export interface RangeBounds {
  lower?: unknown;
  lowerExclusive?: boolean;
  upper?: unknown;
  upperExclusive?: boolean;
}
