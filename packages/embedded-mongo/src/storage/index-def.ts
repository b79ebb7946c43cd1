// Secondary indexes kept as hash maps from canonical key to document ids: equality lookups
// (the common point query) never scan. Multikey: each array element gets its own entry.
import { errors } from '../errors';
import { matchDocument } from '../query/match';
import { Doc, getField, isPlainObject, valueKey } from '../query/values';

export interface IndexSpec {
  v: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
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

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    const kinds = Object.values(spec.key).filter((d) => typeof d === 'string' && d !== 'hashed');
    if (kinds.length > 0)
      throw errors.indexNotAllowed(`Index type ${String(kinds[0])} is not supported by the embedded server`);
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** Keys this document contributes, or an empty list when the index skips it (sparse/partial). */
  keysFor(doc: Doc): string[] {
    if (this.spec.partialFilterExpression && !matchDocument(doc, this.spec.partialFilterExpression))
      return [];
    if (this.fields.length === 1 && !this.spec.sparse) {
      const values = fieldValues(doc, this.fields[0]);
      if (values.length === 1) return [valueKey(values[0])];
    }
    const perField = this.fields.map((f) => fieldValues(doc, f));
    if (this.spec.sparse && perField.every((vals) => vals.every((v) => v === undefined))) return [];
    let keys: string[] = [''];
    for (let i = 0; i < perField.length; i++) {
      const parts = [...new Set(perField[i].map(valueKey))];
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
      const hit = vals.find((v) => valueKey(v) === wanted[i]);
      out[f] = hit === undefined ? null : hit;
    });
    return out;
  }

  add(id: string, keys: string[]): void {
    for (const k of keys) {
      addTo(this.entries, k, id);
      if (this.fields.length > 1) addTo(this.prefixEntries, prefixOf(k), id);
    }
  }

  remove(id: string, keys: string[]): void {
    for (const k of keys) {
      removeFrom(this.entries, k, id);
      if (this.fields.length > 1) removeFrom(this.prefixEntries, prefixOf(k), id);
    }
  }

  lookupPrefix(value: unknown): Set<string> | undefined {
    return this.prefixEntries.get(valueKey(value));
  }

  /** Exact-key lookup; only valid when the filter pins every field of a non-sparse, non-partial index. */
  lookup(values: unknown[]): Set<string> | undefined {
    return this.entries.get(values.map(valueKey).join('\u0000'));
  }

  get usableForLookup(): boolean {
    return !this.spec.sparse && !this.spec.partialFilterExpression;
  }
}

function prefixOf(key: string): string {
  const cut = key.indexOf('\u0000');
  return cut < 0 ? key : key.slice(0, cut);
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(id);
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) map.delete(key);
}
