// One collection: documents in insertion order keyed by canonical _id, plus secondary indexes.
// All unique checks happen before anything changes, so a failed write leaves no trace.
import { duplicateKey, errors } from '../errors';
import { activeCollator, parseCollation, withCollation } from '../query/collation';
import { matchDocument } from '../query/match';
import { Doc, compareValues, getField, isPlainObject, valueKey } from '../query/values';
import type { Transaction } from './engine';
import { IndexSpec, RangeBounds, SecondaryIndex } from './index-def';
import { IndexEntry } from './ordered';

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

export function idKeyOf(doc: Doc): string {
  return valueKey(doc._id);
}

export class Collection {
  readonly db: string;
  name: string;
  readonly options: Doc;
  /** The transaction that created this collection, until it commits (nobody else sees it). */
  owner?: Transaction;
  readonly docs = new Map<string, Doc>();
  readonly indexes: SecondaryIndex[] = [];
  /**
   * Insertion position of each document, MongoDB's RecordId: documents found through an index come
   * back in this order, as a real index scan returns equal keys (an update does not move them).
   */
  private readonly recordIds = new Map<string, number>();
  private nextRecordId = 0;
  /**
   * While transactions are open: for each document written since, the committed versions it
   * replaced (sequence of the write + the document before it), oldest first. Transactions read
   * the version that was current when they started from here.
   */
  readonly history = new Map<string, Array<{ seq: number; before: Doc | undefined }>>();

  lastWriteSeq(id: string): number {
    const h = this.history.get(id);
    return h ? h[h.length - 1].seq : -1;
  }

  /** The document as it was after write `seq` (undefined if it did not exist then). */
  versionAt(id: string, seq: number): Doc | undefined {
    const h = this.history.get(id);
    if (h) for (const entry of h) if (entry.seq > seq) return entry.before;
    return this.docs.get(id);
  }

  /** The collection's default collation (options.collation, MongoDB's full form); absent: binary. */
  readonly collator?: Intl.Collator;
  /**
   * Under a default collation, the `_id` index has it too (MongoDB's `_id_` index inherits it):
   * `_id`s it calls equal are duplicates. The documents stay keyed by their binary `_id` in `docs`;
   * this index only adds the collated uniqueness and lookups.
   */
  readonly idIndex?: SecondaryIndex;

  constructor(db: string, name: string, options: Doc = {}) {
    this.db = db;
    this.name = name;
    this.options = options;
    const collation = parseCollation(options.collation);
    if (collation) {
      this.collator = collation.collator;
      this.idIndex = new SecondaryIndex({ ...ID_INDEX, collation: collation.spec });
    }
  }

  /** A view (`create` with `viewOn`): it holds no documents; reads run its pipeline on its source. */
  get isView(): boolean {
    return this.options.viewOn !== undefined;
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  indexSpecs(): IndexSpec[] {
    return [this.idIndex?.spec ?? ID_INDEX, ...this.indexes.map((i) => i.spec)];
  }

  /** The unique indexes, the collated `_id` index first when there is one. */
  uniqueIndexes(): SecondaryIndex[] {
    const out = this.indexes.filter((i) => i.unique);
    if (this.idIndex) out.unshift(this.idIndex);
    return out;
  }

  /**
   * Throws 11000 if `doc` would collide with another document (ignoring `ignoreIds`). `id` and
   * `keys` (the document's keys in each of `indexes`): when the caller has them already.
   */
  checkUnique(
    doc: Doc,
    selfId: string | undefined,
    ignoreIds?: { has(id: string): boolean },
    id = idKeyOf(doc),
    keys?: string[][],
  ): void {
    if (id !== selfId && this.docs.has(id) && !ignoreIds?.has(id))
      throw duplicateKey(this.ns, '_id_', { _id: 1 }, { _id: doc._id }, this.idIndex?.spec.collation);
    if (this.idIndex) this.checkUniqueIn(this.idIndex, this.idIndex.keysFor(doc), doc, selfId, ignoreIds);
    for (let i = 0; i < this.indexes.length; i++) {
      const index = this.indexes[i];
      if (index.unique) this.checkUniqueIn(index, keys?.[i] ?? index.keysFor(doc), doc, selfId, ignoreIds);
    }
  }

  private checkUniqueIn(
    index: SecondaryIndex,
    keys: string[],
    doc: Doc,
    selfId: string | undefined,
    ignoreIds: { has(id: string): boolean } | undefined,
  ): void {
    for (const key of keys) {
      const holders = index.entries.get(key);
      if (!holders) continue;
      for (const holder of holders) {
        if (holder !== selfId && !ignoreIds?.has(holder)) throw index.duplicate(this.ns, doc, key);
      }
    }
  }

  insert(doc: Doc, id = idKeyOf(doc)): void {
    // Keyed once for both the unique checks and the indexes.
    const keys = this.keysIn(doc);
    this.checkUnique(doc, undefined, undefined, id, keys);
    this.put(doc, id, keys);
  }

  replace(id: string, next: Doc): void {
    const keys = this.keysIn(next);
    this.checkUnique(next, id, undefined, id, keys);
    this.put(next, id, keys);
  }

  /** The document's keys in each of `indexes`, in their order. */
  private keysIn(doc: Doc): string[][] {
    const keys: string[][] = [];
    for (const index of this.indexes) keys.push(index.keysFor(doc));
    return keys;
  }

  /** Stores without checks (journal replay, transaction commit after validation). */
  put(doc: Doc, id = idKeyOf(doc), keys?: string[][]): void {
    const old = this.docs.get(id);
    if (!old) this.recordIds.set(id, this.nextRecordId++);
    if (this.idIndex) {
      if (old) this.idIndex.remove(id, this.idIndex.keysFor(old));
      this.idIndex.add(id, this.idIndex.keysFor(doc));
    }
    this.docs.set(id, doc);
    const rid = this.recordIds.get(id)!;
    for (let i = 0; i < this.indexes.length; i++) {
      const index = this.indexes[i];
      const next = keys?.[i] ?? index.keysFor(doc);
      if (old) {
        const previous = index.keysFor(old);
        // Most updates leave an index's fields alone: its entries stay as they are.
        if (sameKeys(previous, next)) continue;
        index.remove(id, previous, old, rid);
      }
      index.add(id, next, doc, rid);
    }
  }

  remove(id: string): Doc | undefined {
    const old = this.docs.get(id);
    if (!old) return undefined;
    const rid = this.recordIds.get(id);
    for (const index of this.indexes) index.remove(id, index.keysFor(old), old, rid);
    this.idIndex?.remove(id, this.idIndex.keysFor(old));
    this.docs.delete(id);
    this.recordIds.delete(id);
    return old;
  }

  addIndex(spec: IndexSpec): SecondaryIndex {
    const index = new SecondaryIndex(spec);
    if (index.unique) {
      for (const [id, doc] of this.docs) {
        // A document's keys are distinct, so they are checked against the others' and added together.
        const keys = index.keysFor(doc);
        for (const key of keys) {
          const holders = index.entries.get(key);
          if (holders && holders.size > 0 && !holders.has(id)) throw index.duplicate(this.ns, doc, key);
        }
        index.add(id, keys);
      }
    } else {
      for (const [id, doc] of this.docs) index.add(id, index.keysFor(doc));
    }
    this.indexes.push(index);
    return index;
  }

  dropIndex(name: string): void {
    const i = this.indexes.findIndex((x) => x.spec.name === name);
    if (i < 0) throw errors.indexNotFound(`index not found with name [${name}]`);
    this.indexes.splice(i, 1);
  }

  /**
   * Documents that may match `filter`, using the _id map or an index when the filter pins a key
   * by equality or bounds a range, or the union of the indexed branches of a `$or`; otherwise every
   * document. Callers still apply the full matcher.
   * `plan` names the access path the way explain() does. With `sort`, an index whose key order is
   * that order may be walked in it (`sorted`): the documents then come in the sort's order, equal
   * sort keys by RecordId as a stable sort leaves them, so a limit can stop the walk early.
   * `counter` counts the index keys examined.
   */
  candidates(filter: Doc, sort?: Doc, counter?: { keysExamined: number }): Candidates {
    // An index answers a query only under its own collation (binary indexes: no collation).
    const collator = activeCollator();
    const id = equalityValue(filter, '_id');
    if (id.found && !collator) {
      const out: Doc[] = [];
      for (const v of id.values) {
        const doc = this.docs.get(valueKey(v));
        if (doc) out.push(doc);
      }
      return { plan: { stage: 'IDHACK' }, docs: out, sorted: false };
    }
    if (id.found && this.idIndex && this.idIndex.collator === collator) {
      const ids = new Set<string>();
      for (const v of id.values) for (const i of this.idIndex.lookup([v]) ?? []) ids.add(i);
      return { plan: { stage: 'IDHACK' }, docs: this.resolveIds(ids), sorted: false };
    }
    const walks = collator ? [] : this.walkPlans(filter, sort);
    const sortedWalk = best(walks.filter((w) => w.direction !== undefined));
    const unordered = this.unorderedPath(filter, collator, walks);
    const or = this.orPath(filter, collator);
    const unorderedScore = unordered?.score ?? 0;
    // A union is worth reading only when it pins more than one index path does.
    if (or && or.score > Math.max(unorderedScore, sortedWalk?.score ?? 0))
      return { plan: or.plan, docs: this.resolveIds(or.ids(counter)), sorted: false };
    if (sortedWalk && sortedWalk.score >= unorderedScore)
      return { plan: walkPlan(sortedWalk), docs: this.walk(sortedWalk, counter), sorted: true };
    if (unordered)
      return { plan: unordered.plan, docs: this.resolveIds(unordered.ids(counter)), sorted: false };
    return { plan: { stage: 'COLLSCAN', direction: 'forward' }, docs: this.docs.values(), sorted: false };
  }

  /**
   * The best path that reads a set of documents with no order: a walk's slice (in RecordId order,
   * as the other index paths give them) or a lookup in the hash maps, which win ties (an equality
   * lookup needs no ordered copy).
   */
  private unorderedPath(
    filter: Doc,
    collator: Intl.Collator | undefined,
    walks: WalkPlan[],
  ): IdPath | undefined {
    const lookup = this.lookupPlan(filter, collator);
    const rangeWalk = best(walks);
    if (rangeWalk && rangeWalk.score > (lookup?.score ?? 0)) {
      return {
        score: rangeWalk.score,
        plan: walkPlan(rangeWalk),
        ids: (counter) => {
          const ids = new Set<string>();
          for (const e of this.slice(rangeWalk, false)) {
            if (counter) counter.keysExamined++;
            ids.add(e.id);
          }
          return ids;
        },
      };
    }
    if (!lookup) return undefined;
    return {
      score: lookup.score,
      plan: indexPlan(lookup.index.spec),
      ids: (counter) => {
        const ids = lookup.run();
        if (counter) counter.keysExamined += ids.size;
        return ids;
      },
    };
  }

  /**
   * A `$or` (the filter's own, or one of its top-level `$and`'s) every branch of which, with the
   * rest of the filter, has an index path: the union of what the branches read (MongoDB's OR
   * stage). Its score is its weakest branch's; the best such `$or` is the one returned.
   */
  private orPath(filter: Doc, collator: Intl.Collator | undefined): IdPath | undefined {
    let top: IdPath | undefined;
    for (const { branches, rest } of disjunctions(filter)) {
      const paths: IdPath[] = [];
      for (const branch of branches) {
        const path = isPlainObject(branch) ? this.branchPath(conjoin(rest, branch), collator) : undefined;
        if (!path) break;
        paths.push(path);
      }
      if (paths.length !== branches.length) continue;
      const score = Math.min(...paths.map((p) => p.score));
      if (top && top.score >= score) continue;
      top = {
        score,
        plan: {
          stage: 'FETCH',
          inputStage: { stage: 'OR', inputStages: paths.map((p) => p.plan.inputStage ?? p.plan) },
        },
        ids: (counter) => {
          const ids = new Set<string>();
          for (const p of paths) for (const i of p.ids(counter)) ids.add(i);
          return ids;
        },
      };
    }
    return top;
  }

  /** One branch of a `$or`: an `_id` lookup or the best unordered index path. */
  private branchPath(filter: Doc, collator: Intl.Collator | undefined): IdPath | undefined {
    const id = equalityValue(filter, '_id');
    const idIndex = collator ? this.idIndex : undefined;
    if (id.found && (!collator || idIndex?.collator === collator)) {
      return {
        score: 2,
        plan: { stage: 'IXSCAN', keyPattern: { _id: 1 }, indexName: '_id_', direction: 'forward' },
        ids: (counter) => {
          const ids = new Set<string>();
          for (const v of id.values) {
            if (counter) counter.keysExamined++;
            if (idIndex) for (const i of idIndex.lookup([v]) ?? []) ids.add(i);
            else if (this.docs.has(valueKey(v))) ids.add(valueKey(v));
          }
          return ids;
        },
      };
    }
    const path = this.unorderedPath(filter, collator, collator ? [] : this.walkPlans(filter, undefined));
    return path && path.score > 0 ? path : undefined;
  }

  /**
   * Whether `index` may answer `filter` at all: under the query's collation, on a path the matcher
   * reads as the keys hold it, and holding every document the filter can match. A sparse index
   * leaves out documents that have none of its fields, so the filter must need one of them (an
   * equality on a value other than null, or a range); a partial index leaves out those its filter
   * refuses, so the query's equalities must satisfy that filter.
   */
  private usable(index: SecondaryIndex, filter: Doc, collator: Intl.Collator | undefined): boolean {
    if (index.collator !== collator || !index.answersQueries) return false;
    if (index.spec.sparse && !index.fields.some((f) => needsField(filter, f))) return false;
    const pfe = index.spec.partialFilterExpression;
    return !pfe || withCollation(index.collator, () => impliesPartialFilter(filter, pfe));
  }

  /**
   * The best path through the hash maps: every field pinned by equality (each to one value, or to
   * the values of `$in` lists), `{ field: null }` on a single-field index, the first field of a
   * compound index pinned, or a range on a first field (any index without a collation, multikey
   * ones included). Scored as walks are: 2 per pinned field, 1 for a range.
   */
  private lookupPlan(
    filter: Doc,
    collator: Intl.Collator | undefined,
  ): { index: SecondaryIndex; score: number; run: () => Set<string> } | undefined {
    for (const index of this.indexes) {
      if (!this.usable(index, filter, collator)) continue;
      const keys = pinnedKeys(filter, index.fields);
      if (keys)
        return {
          index,
          score: 2 * index.fields.length,
          run: () => {
            const ids = new Set<string>();
            for (const values of keys) for (const i of index.lookup(values) ?? []) ids.add(i);
            return ids;
          },
        };
    }
    for (const index of this.indexes) {
      // `{ field: null }` matches null and missing alike; a full (not sparse, not partial) index
      // keys both, so the union of the two entries holds every candidate. Outboxes and queues ask
      // this on every poll ("not yet published"), which must not scan the collection.
      if (
        !index.usableForLookup ||
        index.collator !== collator ||
        index.fields.length !== 1 ||
        !isNullEquality(filter, index.fields[0])
      )
        continue;
      const run = () => new Set([...(index.lookup([null]) ?? []), ...(index.lookup([undefined]) ?? [])]);
      return { index, score: 2, run };
    }
    for (const index of this.indexes) {
      if (index.fields.length < 2 || !this.usable(index, filter, collator)) continue;
      const first = equalityValue(filter, index.fields[0]);
      if (first.found && first.values.length === 1)
        return { index, score: 2, run: () => new Set(index.lookupPrefix(first.values[0])) };
    }
    // A range on an index's first field ($gt, $gte, $lt, $lte) walks that field's keys in order.
    if (!collator) {
      for (const index of this.indexes) {
        if (!this.usable(index, filter, undefined)) continue;
        const bounds = rangeBounds(filter, index.fields[0], index.multikey);
        if (!bounds) continue;
        const run = () => index.rangeLookup(bounds, (id) => this.docs.get(id)!).ids;
        return { index, score: 1, run };
      }
    }
    return undefined;
  }

  /**
   * For each walkable index: the leading fields the filter pins to one value, a range on the next
   * field, and whether the key order (forward or backward) gives `sort` once the pinned fields are
   * set aside.
   */
  private walkPlans(filter: Doc, sort: Doc | undefined): WalkPlan[] {
    const out: WalkPlan[] = [];
    for (const index of this.indexes) {
      if (!index.walkable || !this.usable(index, filter, undefined)) continue;
      const eq: unknown[] = [];
      for (const field of index.fields) {
        const pinned = equalityValue(filter, field);
        if (!pinned.found || pinned.values.length !== 1) break;
        eq.push(pinned.values[0]);
      }
      const p = eq.length;
      const bounds = p < index.fields.length ? rangeBounds(filter, index.fields[p], false) : undefined;
      const order = sort ? sortOrder(index, sort, p) : undefined;
      out.push({
        index,
        eq,
        bounds,
        direction: order?.direction,
        sortFields: order?.fields ?? 0,
        score: 2 * p + (bounds ? 1 : 0),
      });
    }
    return out;
  }

  /** The entries of a walk's slice: the pinned prefix, within the range on the next field. */
  private slice(w: WalkPlan, backward: boolean): Iterable<IndexEntry> {
    const ordered = w.index.ordered(() => this.allEntries());
    const { before, after } = sliceTests(w);
    return ordered.between(
      ordered.seek(before),
      ordered.seek((e) => !after(e)),
      backward,
    );
  }

  /**
   * The documents of a walk's slice in key order; entries whose sorted fields are equal come out
   * by RecordId, whichever way the walk goes, as a stable sort of a scan would give them.
   */
  private *walk(w: WalkPlan, counter?: { keysExamined: number }): Generator<Doc> {
    const from = w.eq.length;
    const to = from + w.sortFields;
    const sameSortKey = (a: IndexEntry, b: IndexEntry) => {
      for (let i = from; i < to; i++) if (compareValues(a.vals[i], b.vals[i]) !== 0) return false;
      return true;
    };
    let group: IndexEntry[] = [];
    for (const e of this.slice(w, w.direction === -1)) {
      if (counter) counter.keysExamined++;
      if (group.length > 0 && !sameSortKey(group[0], e)) {
        yield* this.byRecordId(group);
        group = [];
      }
      group.push(e);
    }
    yield* this.byRecordId(group);
  }

  private *byRecordId(group: IndexEntry[]): Generator<Doc> {
    if (group.length > 1) group.sort((a, b) => a.rid - b.rid);
    for (const e of group) yield this.docs.get(e.id)!;
  }

  private *allEntries(): Generator<{ id: string; doc: Doc; rid: number }> {
    for (const [id, doc] of this.docs) yield { id, doc, rid: this.recordIds.get(id)! };
  }

  private resolveIds(ids: Set<string> | undefined): Doc[] {
    if (!ids) return [];
    // A unique index's lookup (findOne by email): no array to build and sort.
    if (ids.size === 1) {
      const [id] = ids;
      return [this.docs.get(id)!];
    }
    const ordered = [...ids];
    if (ordered.length > 1) ordered.sort((a, b) => this.recordIds.get(a)! - this.recordIds.get(b)!);
    return ordered.map((i) => this.docs.get(i)!);
  }
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface Candidates {
  plan: Doc;
  docs: Iterable<Doc>;
  /** Whether `docs` come in the requested sort's order (an index walked in it). */
  sorted: boolean;
}

/** An access path that reads a set of document ids, in no order. */
interface IdPath {
  /** 2 per field pinned by equality, 1 for a range (an OR: its weakest branch's). */
  score: number;
  plan: Doc;
  ids(counter?: { keysExamined: number }): Set<string>;
}

/** A walk of an index in key order: its pinned prefix, a range on the next field, the sort it gives. */
interface WalkPlan {
  index: SecondaryIndex;
  /** Values of the leading fields pinned by equality. */
  eq: unknown[];
  /** Bounds on the field after them. */
  bounds?: RangeBounds;
  /** 1: the key order is the sort's, -1: its reverse; absent: it gives no requested sort. */
  direction?: 1 | -1;
  /** How many fields after the pinned ones the sort names. */
  sortFields: number;
  score: number;
}

function best(plans: WalkPlan[]): WalkPlan | undefined {
  let top: WalkPlan | undefined;
  for (const p of plans) if (!top || p.score > top.score) top = p;
  return top;
}

/**
 * The direction in which `index`'s key order gives `sort`, with `pinned` leading fields fixed by
 * equality: the sort's other fields must be the next fields of the index in order, all in the
 * index's directions or all reversed.
 */
function sortOrder(
  index: SecondaryIndex,
  sort: Doc,
  pinned: number,
): { direction: 1 | -1; fields: number } | undefined {
  const fixed = new Set(index.fields.slice(0, pinned));
  const rest = Object.entries(sort).filter(([field]) => !fixed.has(field));
  if (rest.length === 0 || pinned + rest.length > index.fields.length) return undefined;
  let direction: 1 | -1 | undefined;
  for (let j = 0; j < rest.length; j++) {
    const [field, dir] = rest[j];
    if (field !== index.fields[pinned + j] || isPlainObject(dir)) return undefined;
    const d = (Number(dir) < 0 ? -1 : 1) * index.directions[pinned + j];
    if (direction !== undefined && d !== direction) return undefined;
    direction = d as 1 | -1;
  }
  return { direction: direction!, fields: rest.length };
}

/**
 * Where a walk's slice starts and ends in key order: `before` holds for the entries ahead of it,
 * `after` for those past it (the pinned prefix compared first, then the range on the next field
 * in that field's direction).
 */
function sliceTests(w: WalkPlan): { before: (e: IndexEntry) => boolean; after: (e: IndexEntry) => boolean } {
  const { eq, bounds } = w;
  const dirs = w.index.directions;
  const p = eq.length;
  const prefix = (e: IndexEntry) => {
    for (let i = 0; i < p; i++) {
      const c = compareValues(e.vals[i], eq[i]);
      if (c !== 0) return c * dirs[i];
    }
    return 0;
  };
  const belowLower = (v: unknown) => {
    if (bounds?.lower === undefined) return false;
    const c = compareValues(v, bounds.lower);
    return c < 0 || (c === 0 && bounds.lowerExclusive === true);
  };
  const aboveUpper = (v: unknown) => {
    if (bounds?.upper === undefined) return false;
    const c = compareValues(v, bounds.upper);
    return c > 0 || (c === 0 && bounds.upperExclusive === true);
  };
  const ascending = dirs[p] !== -1;
  return {
    before: (e) => {
      const c = prefix(e);
      if (c !== 0) return c < 0;
      return ascending ? belowLower(e.vals[p]) : aboveUpper(e.vals[p]);
    },
    after: (e) => {
      const c = prefix(e);
      if (c !== 0) return c > 0;
      return ascending ? aboveUpper(e.vals[p]) : belowLower(e.vals[p]);
    },
  };
}

function indexPlan(spec: IndexSpec, direction = 'forward'): Doc {
  return {
    stage: 'FETCH',
    inputStage: { stage: 'IXSCAN', keyPattern: spec.key, indexName: spec.name, direction },
  };
}

function walkPlan(w: WalkPlan): Doc {
  return indexPlan(w.index.spec, w.direction === -1 ? 'backward' : 'forward');
}

/** Equality values a filter imposes on a top-level path (plain value, $eq or $in of scalars). */
function equalityValue(filter: Doc, path: string): { found: boolean; values: unknown[] } {
  const direct = getField(filter, path);
  if (direct !== undefined && scalarForLookup(direct)) return { found: true, values: [direct] };
  if (isPlainObject(direct)) {
    const keys = Object.keys(direct);
    if (keys.length === 1 && keys[0] === '$eq' && scalarForLookup(direct.$eq))
      return { found: true, values: [direct.$eq] };
    if (
      keys.length === 1 &&
      keys[0] === '$in' &&
      Array.isArray(direct.$in) &&
      direct.$in.every(scalarForLookup)
    )
      return { found: true, values: direct.$in };
  }
  if (Array.isArray(filter.$and)) {
    for (const sub of filter.$and) {
      if (!isPlainObject(sub)) continue;
      const r = equalityValue(sub, path);
      if (r.found) return r;
    }
  }
  return { found: false, values: [] };
}

/** Most keys one lookup reads for the `$in` lists of a compound index's fields together. */
const MAX_LOOKUP_KEYS = 1000;

/**
 * The keys (one value per field) a filter pins `fields` to: each field to one value, or to the
 * values of its `$in`, every combination of them; undefined unless the filter pins every field.
 */
function pinnedKeys(filter: Doc, fields: string[]): unknown[][] | undefined {
  let keys: unknown[][] = [[]];
  for (const field of fields) {
    const pinned = equalityValue(filter, field);
    if (!pinned.found || pinned.values.length === 0) return undefined;
    if (keys.length * pinned.values.length > MAX_LOOKUP_KEYS) return undefined;
    keys = keys.flatMap((key) => pinned.values.map((v) => [...key, v]));
  }
  return keys;
}

/**
 * Whether every document matching `filter` has `path`: it pins the path to values other than null
 * (scalarForLookup refuses null) or bounds it by a range, which a missing field never satisfies.
 */
function needsField(filter: Doc, path: string): boolean {
  return equalityValue(filter, path).found || rangeBounds(filter, path, false) !== undefined;
}

/**
 * Whether every document matching `filter` passes a partial index's filter: each field that filter
 * names (top-level or in its `$and`) must be pinned by the query to values that pass that field's
 * condition. The conditions a partial filter may hold ($eq, $exists, $gt.., $type, $in) hold for an
 * array when they hold for one of its elements, so a document holding the pinned value in an array
 * passes too.
 */
function impliesPartialFilter(filter: Doc, partial: Doc): boolean {
  for (const [path, condition] of Object.entries(partial)) {
    if (path === '$and') {
      if (!Array.isArray(condition)) return false;
      if (!condition.every((c) => isPlainObject(c) && impliesPartialFilter(filter, c))) return false;
      continue;
    }
    if (path.startsWith('$')) return false;
    const pinned = equalityValue(filter, path);
    if (!pinned.found) return false;
    for (const v of pinned.values)
      if (!matchDocument(documentWith(path, v), { [path]: condition })) return false;
  }
  return true;
}

/** The smallest document holding `value` at a dotted `path`. */
function documentWith(path: string, value: unknown): Doc {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, part) => ({ [part]: inner }), value) as Doc;
}

/** Most branches a `$or` may have for its branches to be looked up one by one. */
const MAX_OR_BRANCHES = 1000;

/**
 * The filter's disjunctions an OR stage may answer: its own `$or`, and each `$or` that is one of
 * its `$and`'s members, with the rest of the filter (what every branch must match as well).
 */
function disjunctions(filter: Doc): Array<{ branches: unknown[]; rest: Doc }> {
  const out: Array<{ branches: unknown[]; rest: Doc }> = [];
  const usable = (or: unknown): or is unknown[] =>
    Array.isArray(or) && or.length > 0 && or.length <= MAX_OR_BRANCHES;
  if (usable(filter.$or)) {
    const { $or: _branches, ...rest } = filter;
    out.push({ branches: filter.$or, rest });
  }
  if (Array.isArray(filter.$and)) {
    const and = filter.$and;
    and.forEach((member, i) => {
      if (!isPlainObject(member) || Object.keys(member).length !== 1 || !usable(member.$or)) return;
      const others = and.filter((_, j) => j !== i);
      const { $and: _and, ...rest } = filter;
      out.push({ branches: member.$or, rest: others.length > 0 ? { ...rest, $and: others } : rest });
    });
  }
  return out;
}

/** `rest` and one `$or` branch as one filter: side by side, or under `$and` when they share a field. */
function conjoin(rest: Doc, branch: Doc): Doc {
  if (!Object.keys(branch).some((k) => k in rest)) return { ...rest, ...branch };
  return { ...rest, $and: [...(Array.isArray(rest.$and) ? rest.$and : []), branch] };
}

function isNullEquality(filter: Doc, path: string): boolean {
  const direct = getField(filter, path);
  if (direct === null) return true;
  if (isPlainObject(direct) && Object.keys(direct).length === 1 && direct.$eq === null) return true;
  return (
    Array.isArray(filter.$and) && filter.$and.some((sub) => isPlainObject(sub) && isNullEquality(sub, path))
  );
}

const RANGE_BOUND_TYPES = new Set(['ObjectId', 'Long', 'Decimal128', 'Int32', 'Double', 'Timestamp']);

/**
 * The bounds a filter's `$gt`/`$gte`/`$lt`/`$lte` put on a top-level path (the matcher then applies
 * the exact operators and MongoDB's type bracketing to the candidates, a superset). On a multikey
 * index only one bound is used: one element may pass `$gt` and another `$lt`.
 */
function rangeBounds(filter: Doc, path: string, multikey: boolean): RangeBounds | undefined {
  const condition = getField(filter, path);
  if (!isPlainObject(condition)) return undefined;
  const bounds: RangeBounds = {};
  for (const [op, value] of Object.entries(condition)) {
    if (!rangeBoundValue(value)) continue;
    if (op === '$gt' || op === '$gte') {
      bounds.lower = value;
      bounds.lowerExclusive = op === '$gt';
    } else if (op === '$lt' || op === '$lte') {
      bounds.upper = value;
      bounds.upperExclusive = op === '$lt';
    }
  }
  if (bounds.lower === undefined && bounds.upper === undefined) return undefined;
  if (multikey && bounds.lower !== undefined) {
    delete bounds.upper;
    delete bounds.upperExclusive;
  }
  return bounds;
}

function rangeBoundValue(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isNaN(v);
  if (typeof v === 'string' || typeof v === 'boolean') return true;
  if (v instanceof Date) return !Number.isNaN(v.getTime());
  const type = (v as { _bsontype?: string } | null)?._bsontype;
  if (type === 'Double' || type === 'Decimal128') return !Number.isNaN(Number(String(v)));
  return type !== undefined && RANGE_BOUND_TYPES.has(type);
}

function scalarForLookup(v: unknown): boolean {
  // Arrays, null (matches missing), regexes and operator documents need the full matcher.
  if (v === null || v === undefined || Array.isArray(v) || v instanceof RegExp) return false;
  if (isPlainObject(v)) return Object.keys(v).length > 0 && !Object.keys(v)[0].startsWith('$');
  return (v as { _bsontype?: string })._bsontype !== 'BSONRegExp';
}
