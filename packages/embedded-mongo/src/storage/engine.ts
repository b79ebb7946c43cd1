// The storage engine: databases and collections in memory, every committed change journaled,
// and single-node transactions kept as private overlays until commit (first writer wins).
import fs from 'node:fs';
import path from 'node:path';
import { BSON, Document } from 'bson';
import { MongoServerError, duplicateKey, errors } from '../errors';
import { MatchState, matchDocument } from '../query/match';
import { Doc, valueKey } from '../query/values';
import { Collection, idKeyOf } from './collection';
import { IndexSpec } from './index-def';
import { FsyncPolicy, Journal, acquireLock, newGeneration, readFramed } from './journal';

export const MAX_BSON_SIZE = 16 * 1024 * 1024;

export interface EngineOptions {
  dbPath?: string;
  fsync?: FsyncPolicy;
  fsyncIntervalMs?: number;
  /** Journal size that triggers a snapshot + truncate. */
  compactBytes?: number;
  log?: (msg: string) => void;
}

export class Transaction {
  readonly sessionKey: string;
  readonly txnNumber: bigint;
  readonly startSeq: number;
  readonly startedAt = Date.now();
  readonly writes = new Map<Collection, Map<string, Doc | null>>();
  state: 'active' | 'committed' | 'aborted' = 'active';

  constructor(sessionKey: string, txnNumber: bigint, startSeq: number) {
    this.sessionKey = sessionKey;
    this.txnNumber = txnNumber;
    this.startSeq = startSeq;
  }
}

/** What explain() reports: the access path and how many documents the matcher looked at. */
export interface ScanStats {
  plan?: Doc;
  examined: number;
}

export interface Matched {
  doc: Doc;
  position?: number;
}

export class Engine {
  readonly dbs = new Map<string, Map<string, Collection>>();
  private seq = 0;
  private readonly activeTxns = new Set<Transaction>();
  private readonly locks = new Map<string, Transaction>();
  private pending: Document[] = [];
  private journal: Journal | undefined;
  private releaseLock: (() => void) | undefined;
  private readonly compactBytes: number;
  private readonly log: (msg: string) => void;

  constructor(private readonly options: EngineOptions = {}) {
    this.compactBytes = options.compactBytes ?? 64 * 1024 * 1024;
    this.log = options.log ?? (() => undefined);
  }

  /** Opens dbPath: lock, load snapshot, replay journal. */
  open(): { replayed: number; tornBytes: number } {
    const dir = this.options.dbPath;
    if (!dir) return { replayed: 0, tornBytes: 0 };
    fs.mkdirSync(dir, { recursive: true });
    this.releaseLock = acquireLock(dir);
    try {
      let expected: string | undefined;
      const snapshot = readFramed(path.join(dir, 'snapshot.bin'), (r) => {
        if (r.op === 'snapshotStart') expected = r.journalGeneration;
        else this.applyRecord(r);
      });
      // The journal applies only if it is the generation the snapshot was cut for; an older one
      // (a crash between writing the snapshot and truncating the journal) is already inside it.
      let stale = false;
      let generation = expected ?? newGeneration();
      const journal = readFramed(path.join(dir, 'journal.wal'), (r) => {
        if (r.op === 'journalStart') {
          stale = expected !== undefined && r.generation !== expected;
          generation = r.generation;
        } else if (!stale) this.applyRecord(r);
      });
      if (journal.tornBytes > 0) this.log(`journal: dropped a torn tail of ${journal.tornBytes} bytes`);
      if (stale) {
        this.log('journal: skipped a journal older than the snapshot');
        generation = expected!;
      }
      this.journal = new Journal(
        dir,
        this.options.fsync ?? 'interval',
        this.options.fsyncIntervalMs ?? 100,
        stale ? 0 : journal.validLength,
        generation,
      );
      return { replayed: snapshot.records + journal.records, tornBytes: journal.tornBytes };
    } catch (err) {
      this.releaseLock();
      throw err;
    }
  }

  close(): void {
    this.flush();
    this.journal?.close();
    this.journal = undefined;
    this.releaseLock?.();
    this.releaseLock = undefined;
  }

  // ---- journal ----

  private record(r: Document): void {
    if (this.journal) this.pending.push(r);
  }

  /** Writes everything recorded by the current command before its reply goes out. */
  flush(): void {
    if (!this.journal || this.pending.length === 0) return;
    const records = this.pending;
    this.pending = [];
    this.journal.append(records);
    if (this.journal.bytes > this.compactBytes) this.compact();
  }

  compact(): void {
    if (!this.journal) return;
    const started = Date.now();
    this.journal.compact(this.snapshotRecords());
    this.log(`journal: compacted into a snapshot in ${Date.now() - started} ms`);
  }

  private *snapshotRecords(): Iterable<Document> {
    for (const [db, colls] of this.dbs) {
      if (colls.size === 0) yield { op: 'createDb', db };
      for (const coll of colls.values()) {
        yield { op: 'create', db, coll: coll.name, options: coll.options };
        for (const index of coll.indexes) yield { op: 'createIndex', db, coll: coll.name, spec: index.spec };
        for (const doc of coll.docs.values()) yield { op: 'put', db, coll: coll.name, doc };
      }
    }
  }

  private applyRecord(r: Document): void {
    switch (r.op) {
      case 'create':
        if (!this.getCollection(r.db, r.coll))
          this.collections(r.db).set(r.coll, new Collection(r.db, r.coll, r.options ?? {}));
        break;
      case 'createDb':
        this.collections(r.db);
        break;
      case 'drop':
        this.dbs.get(r.db)?.delete(r.coll);
        break;
      case 'dropDatabase':
        this.dbs.delete(r.db);
        break;
      case 'rename': {
        const coll = this.getCollection(r.db, r.from);
        if (!coll) break;
        this.dbs.get(r.db)!.delete(r.from);
        coll.name = r.to;
        this.collections(r.db).set(r.to, coll);
        break;
      }
      case 'createIndex': {
        const coll = this.replayCollection(r.db, r.coll);
        if (!coll.indexes.some((i) => i.spec.name === r.spec.name)) coll.addIndex(r.spec);
        break;
      }
      case 'dropIndex': {
        const coll = this.getCollection(r.db, r.coll);
        if (coll?.indexes.some((i) => i.spec.name === r.name)) coll.dropIndex(r.name);
        break;
      }
      case 'put':
        this.replayCollection(r.db, r.coll).put(r.doc);
        break;
      case 'del':
        this.replayCollection(r.db, r.coll).remove(valueKey(r.id));
        break;
      case 'tx':
        for (const op of r.ops as Document[]) this.applyRecord(op);
        break;
      case 'snapshotEnd':
        break;
      default:
        this.log(`journal: skipping unknown record ${String(r.op)}`);
    }
  }

  private replayCollection(db: string, name: string): Collection {
    let coll = this.getCollection(db, name);
    if (!coll) {
      coll = new Collection(db, name);
      this.collections(db).set(name, coll);
    }
    return coll;
  }

  // ---- namespaces ----

  collections(db: string): Map<string, Collection> {
    let colls = this.dbs.get(db);
    if (!colls) {
      colls = new Map();
      this.dbs.set(db, colls);
    }
    return colls;
  }

  getCollection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  createCollection(db: string, name: string, options: Doc = {}): Collection {
    validateName(db, name);
    if (this.getCollection(db, name)) throw errors.namespaceExists(`${db}.${name}`);
    const coll = new Collection(db, name, options);
    this.collections(db).set(name, coll);
    this.record({ op: 'create', db, coll: name, options });
    return coll;
  }

  ensureCollection(db: string, name: string): Collection {
    return this.getCollection(db, name) ?? this.createCollection(db, name);
  }

  dropCollection(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    if (!colls?.has(name)) return false;
    colls.delete(name);
    this.record({ op: 'drop', db, coll: name });
    return true;
  }

  dropDatabase(db: string): void {
    if (!this.dbs.has(db)) return;
    this.dbs.delete(db);
    this.record({ op: 'dropDatabase', db });
  }

  renameCollection(db: string, from: string, to: string, dropTarget: boolean): void {
    const coll = this.getCollection(db, from);
    if (!coll) throw errors.namespaceNotFound(`Source collection ${db}.${from} does not exist`);
    if (this.getCollection(db, to)) {
      if (!dropTarget) throw errors.namespaceExists(`${db}.${to}`);
      this.dropCollection(db, to);
    }
    validateName(db, to);
    this.dbs.get(db)!.delete(from);
    coll.name = to;
    this.collections(db).set(to, coll);
    this.record({ op: 'rename', db, from, to });
  }

  createIndex(coll: Collection, spec: IndexSpec): void {
    coll.addIndex(spec);
    this.record({ op: 'createIndex', db: coll.db, coll: coll.name, spec });
  }

  dropIndex(coll: Collection, name: string): void {
    coll.dropIndex(name);
    this.record({ op: 'dropIndex', db: coll.db, coll: coll.name, name });
  }

  // ---- reads ----

  /** Matching documents in natural order, seen through `txn`'s private writes when given. */
  *matching(coll: Collection, filter: Doc, txn?: Transaction, stats?: ScanStats): Generator<Matched> {
    const overlay = txn?.writes.get(coll);
    // Documents written since the transaction began are read at their version from its start.
    const history = txn && coll.history.size > 0 ? coll.history : undefined;
    const { plan, docs } = coll.candidates(filter);
    if (stats) stats.plan = plan;
    for (const doc of docs) {
      const id = idKeyOf(doc);
      if (overlay?.has(id) || history?.has(id)) continue;
      if (stats) stats.examined++;
      const state: MatchState = {};
      if (matchDocument(doc, filter, state)) yield { doc, position: state.position };
    }
    if (history) {
      for (const id of history.keys()) {
        if (overlay?.has(id)) continue;
        const doc = coll.versionAt(id, txn!.startSeq);
        if (!doc) continue;
        const state: MatchState = {};
        if (matchDocument(doc, filter, state)) yield { doc, position: state.position };
      }
    }
    if (overlay) {
      for (const doc of overlay.values()) {
        if (!doc) continue;
        const state: MatchState = {};
        if (matchDocument(doc, filter, state)) yield { doc, position: state.position };
      }
    }
  }

  // ---- writes ----

  insert(coll: Collection, doc: Doc, txn?: Transaction): void {
    checkSize(doc);
    if (txn) return this.txnWrite(coll, idKeyOf(doc), doc, txn);
    coll.insert(doc);
    this.committed(coll, idKeyOf(doc), undefined);
    this.record({ op: 'put', db: coll.db, coll: coll.name, doc });
  }

  replace(coll: Collection, next: Doc, txn?: Transaction): void {
    checkSize(next);
    const id = idKeyOf(next);
    if (txn) return this.txnWrite(coll, id, next, txn);
    const before = coll.docs.get(id);
    coll.replace(id, next);
    this.committed(coll, id, before);
    this.record({ op: 'put', db: coll.db, coll: coll.name, doc: next });
  }

  delete(coll: Collection, doc: Doc, txn?: Transaction): void {
    const id = idKeyOf(doc);
    if (txn) return this.txnWrite(coll, id, null, txn);
    const before = coll.remove(id);
    this.committed(coll, id, before);
    this.record({ op: 'del', db: coll.db, coll: coll.name, id: doc._id });
  }

  private committed(coll: Collection, id: string, before: Doc | undefined): void {
    this.seq++;
    if (this.activeTxns.size === 0) return;
    const h = coll.history.get(id);
    if (h) h.push({ seq: this.seq, before });
    else coll.history.set(id, [{ seq: this.seq, before }]);
  }

  // ---- transactions ----

  begin(sessionKey: string, txnNumber: bigint): Transaction {
    const txn = new Transaction(sessionKey, txnNumber, this.seq);
    this.activeTxns.add(txn);
    return txn;
  }

  /**
   * A transaction matched this document for a write that turned out to change nothing. Reads are
   * not snapshots, so the document may have changed since the transaction began: treat it as a
   * write for conflict detection, as MongoDB's snapshot would have seen the older version.
   */
  touch(coll: Collection, doc: Doc, txn: Transaction): void {
    this.claim(coll, idKeyOf(doc), txn);
  }

  private claim(coll: Collection, id: string, txn: Transaction): void {
    const lockKey = `${coll.ns}\u0000${id}`;
    const holder = this.locks.get(lockKey);
    if (holder && holder !== txn && holder.state === 'active') throw errors.writeConflict();
    if (coll.lastWriteSeq(id) > txn.startSeq) throw errors.writeConflict();
  }

  private txnWrite(coll: Collection, id: string, doc: Doc | null, txn: Transaction): void {
    const lockKey = `${coll.ns}\u0000${id}`;
    this.claim(coll, id, txn);
    let overlay = txn.writes.get(coll);
    if (!overlay) {
      overlay = new Map();
      txn.writes.set(coll, overlay);
    }
    if (doc) this.checkUniqueInTxn(coll, id, doc, overlay);
    this.locks.set(lockKey, txn);
    overlay.set(id, doc);
  }

  private checkUniqueInTxn(coll: Collection, id: string, doc: Doc, overlay: Map<string, Doc | null>): void {
    const existing = overlay.has(id) ? overlay.get(id) : coll.docs.get(id);
    coll.checkUnique(doc, existing ? id : undefined, new Set(overlay.keys()));
    for (const [otherId, other] of overlay) {
      if (!other || otherId === id) continue;
      for (const index of coll.indexes) {
        if (!index.unique) continue;
        const theirs = new Set(index.keysFor(other));
        for (const key of index.keysFor(doc)) {
          if (theirs.has(key))
            throw duplicateKey(coll.ns, index.spec.name, index.spec.key, index.keyValueFor(doc, key));
        }
      }
    }
    if (!existing && coll.docs.has(id) && !overlay.has(id))
      throw duplicateKey(coll.ns, '_id_', { _id: 1 }, { _id: doc._id });
  }

  commit(txn: Transaction): void {
    if (txn.state !== 'active') return;
    for (const [coll, overlay] of txn.writes) {
      // Collections are created outside transactions, so one that is no longer registered under
      // its name was dropped or renamed while the transaction ran.
      if (this.getCollection(coll.db, coll.name) !== coll) {
        this.abort(txn);
        throw errors.writeConflict();
      }
      for (const id of overlay.keys()) {
        if (coll.lastWriteSeq(id) > txn.startSeq) {
          this.abort(txn);
          throw errors.writeConflict();
        }
      }
    }
    const undo: Array<[Collection, string, Doc | undefined]> = [];
    const ops: Document[] = [];
    try {
      for (const [coll, overlay] of txn.writes) {
        for (const [id, doc] of overlay) {
          const before = coll.docs.get(id);
          if (doc) {
            coll.checkUnique(doc, id);
            coll.put(doc);
            ops.push({ op: 'put', db: coll.db, coll: coll.name, doc });
          } else {
            coll.remove(id);
            if (before) ops.push({ op: 'del', db: coll.db, coll: coll.name, id: before._id });
          }
          undo.push([coll, id, before]);
        }
      }
    } catch (err) {
      for (const [coll, id, before] of undo.reverse()) {
        if (before) coll.put(before);
        else coll.remove(id);
      }
      this.abort(txn);
      throw err;
    }
    this.finish(txn, 'committed');
    for (const [coll, id, before] of undo) this.committed(coll, id, before);
    if (ops.length > 0) this.record({ op: 'tx', ops });
  }

  /** Aborts transactions older than the limit (MongoDB's transactionLifetimeLimitSeconds). */
  expireTransactions(maxAgeMs: number): void {
    const cutoff = Date.now() - maxAgeMs;
    for (const txn of [...this.activeTxns]) if (txn.startedAt < cutoff) this.abort(txn);
  }

  abort(txn: Transaction): void {
    if (txn.state !== 'active') return;
    this.finish(txn, 'aborted');
  }

  private finish(txn: Transaction, state: 'committed' | 'aborted'): void {
    txn.state = state;
    for (const [coll, overlay] of txn.writes) {
      for (const id of overlay.keys()) {
        const key = `${coll.ns}\u0000${id}`;
        if (this.locks.get(key) === txn) this.locks.delete(key);
      }
    }
    this.activeTxns.delete(txn);
    if (this.activeTxns.size === 0)
      for (const colls of this.dbs.values()) for (const c of colls.values()) c.history.clear();
  }
}

function validateName(db: string, name: string): void {
  if (!name || name.includes('$') || name.startsWith('.') || name.includes('\0'))
    throw errors.invalidNamespace(`Invalid collection name: ${name}`);
  if (!db || /[/\\. "$]/.test(db)) throw errors.invalidNamespace(`Invalid database name: ${db}`);
}

function checkSize(doc: Doc): void {
  const size = BSON.calculateObjectSize(doc);
  if (size > MAX_BSON_SIZE) throw errors.tooLarge(size);
}

export { MongoServerError };
