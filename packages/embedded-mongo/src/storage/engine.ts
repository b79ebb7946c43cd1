// The storage engine: databases and collections in memory, every committed change journaled,
// and single-node transactions kept as private overlays until commit (first writer wins).
// A command's changes are applied in memory, then journaled before the reply; if the journal
// write fails (disk full, I/O error, data folder gone) they are undone, so memory never holds a
// write that the client was told failed and that a restart would not find.
import path from 'node:path';
import { BSON, Document } from 'bson';
import { MongoServerError, duplicateKey, errors } from '../errors';
import { MatchState, matchDocument } from '../query/match';
import { Doc, valueKey } from '../query/values';
import { Collection, idKeyOf } from './collection';
import { IndexSpec, SecondaryIndex } from './index-def';
import {
  FsyncPolicy,
  Journal,
  SIZE_BOUND,
  acquireLock,
  dataDirProblem,
  isDiskError,
  isSpaceError,
  newGeneration,
  readFramed,
  secureDataDir,
} from './journal';

export const MAX_BSON_SIZE = 16 * 1024 * 1024;

export interface EngineOptions {
  dbPath?: string;
  fsync?: FsyncPolicy;
  fsyncIntervalMs?: number;
  /** Journal size that triggers a snapshot + truncate. */
  compactBytes?: number;
  log?: (msg: string) => void;
  /** Faults the person running the server must see (stderr in the CLI); defaults to `log`. */
  warn?: (msg: string) => void;
  /** The clock transaction lifetimes are measured by (tests inject one); defaults to Date.now. */
  now?: () => number;
}

// After a snapshot fails (disk full), the journal keeps every write; the next try waits this long
// so each write does not attempt (and fail) a full snapshot again.
const COMPACT_RETRY_MS = 60_000;

export class Transaction {
  readonly sessionKey: string;
  readonly txnNumber: bigint;
  readonly startSeq: number;
  readonly startedAt: number;
  readonly writes = new Map<Collection, Map<string, Doc | null>>();
  /**
   * The unique keys the transaction's own versions hold, per unique index: key -> document id.
   * Lets each write check the transaction's other writes without walking all of them.
   */
  readonly uniqueKeys = new Map<SecondaryIndex, Map<string, string>>();
  /**
   * Collections this transaction created (by `create`, `createIndexes` or a first insert), by
   * namespace: registered for everyone else only when it commits. Their documents and indexes
   * are written straight into them, since nobody else can see them.
   */
  readonly created = new Map<string, Collection>();
  state: 'active' | 'committed' | 'aborted' = 'active';

  constructor(sessionKey: string, txnNumber: bigint, startSeq: number, startedAt: number) {
    this.sessionKey = sessionKey;
    this.txnNumber = txnNumber;
    this.startSeq = startSeq;
    this.startedAt = startedAt;
  }
}

/** What explain() reports: the access path, index keys read and documents the matcher looked at. */
export interface ScanStats {
  plan?: Doc;
  examined: number;
  keysExamined: number;
  /** Whether the access path gave the requested sort's order (no SORT stage). */
  sorted?: boolean;
}

export interface Matched {
  doc: Doc;
  position?: number;
}

export class Engine {
  readonly dbs = new Map<string, Map<string, Collection>>();
  private seq = 0;
  /** Counts changes of any kind (documents, collections, indexes): the cluster clock ticks on them. */
  changes = 0;
  private readonly activeTxns = new Set<Transaction>();
  private readonly locks = new Map<string, Transaction>();
  /** Snapshot reads outside transactions (readConcern snapshot): they pin versions like a transaction. */
  private readonly readers = new Set<Transaction>();
  /** Namespaces open transactions have created but not yet committed. */
  private readonly pendingCreates = new Map<string, Transaction>();
  private pending: Document[] = [];
  /** Undoes the current command's in-memory changes if they cannot be journaled. */
  private undo: Array<() => void> = [];
  private journal: Journal | undefined;
  private releaseLock: (() => void) | undefined;
  private readonly compactBytes: number;
  private compactRetryAt = 0;
  private readonly log: (msg: string) => void;
  private readonly warn: (msg: string) => void;
  private readonly now: () => number;
  /** Set while writes are refused: the line that was logged, so it is logged once, not per write. */
  private fault: string | undefined;
  /** The data folder was deleted while running: rewrite it from memory before the next append. */
  private rescuePending = false;

  constructor(private readonly options: EngineOptions = {}) {
    this.compactBytes = options.compactBytes ?? 64 * 1024 * 1024;
    this.log = options.log ?? (() => undefined);
    this.warn = options.warn ?? this.log;
    this.now = options.now ?? Date.now;
  }

  /** Whether writes are currently refused because of a disk fault. */
  get diskFault(): boolean {
    return this.fault !== undefined;
  }

  /** Opens dbPath: lock, load snapshot, replay journal. */
  open(): { replayed: number; tornBytes: number } {
    const dir = this.options.dbPath;
    if (!dir) return { replayed: 0, tornBytes: 0 };
    const { created } = secureDataDir(dir);
    if (created) this.warn(`data folder ${dir} did not exist: created it (mode 0700), starting with no data`);
    try {
      this.releaseLock = acquireLock(dir);
      return this.load(dir);
    } catch (err) {
      this.releaseLock?.();
      this.releaseLock = undefined;
      // A file that cannot be read or written (permissions, full disk) gets one actionable line.
      if (isDiskError(err)) throw new Error(dataDirProblem(dir, err));
      throw err;
    }
  }

  private load(dir: string): { replayed: number; tornBytes: number } {
    let expected: string | undefined;
    let complete = false;
    const snapshotFile = path.join(dir, 'snapshot.bin');
    const snapshot = readFramed(snapshotFile, (r) => {
      if (r.op === 'snapshotStart') expected = r.journalGeneration;
      else if (r.op === 'snapshotEnd') complete = true;
      else this.applyRecord(r);
    });
    // A snapshot is renamed into place only once whole, so a damaged one is not a crash artefact:
    // loading part of it would silently lose the rest.
    if (snapshot.tornBytes > 0 || (snapshot.records > 0 && !complete))
      throw new Error(
        `snapshot ${snapshotFile} is damaged (${snapshot.tornBytes} unreadable bytes after byte ` +
          `${snapshot.validLength}); it was not changed. ${restoreAdvice(dir)}.`,
      );
    // The journal applies only if it is the generation the snapshot was cut for; an older one
    // (a crash between writing the snapshot and truncating the journal) is already inside it.
    let stale = false;
    let generation = expected ?? newGeneration();
    const journalFile = path.join(dir, 'journal.wal');
    const journal = readFramed(journalFile, (r) => {
      if (r.op === 'journalStart') {
        stale = expected !== undefined && r.generation !== expected;
        generation = r.generation;
      } else if (!stale) this.applyRecord(r);
    });
    if (stale) {
      this.log('journal: skipped a journal older than the snapshot');
      generation = expected!;
    } else if (journal.laterRecords > 0) {
      // Intact records after the damage mean it is not a write cut short by a crash: cutting the
      // file there would silently drop acknowledged writes. Leave the file as it is for the person.
      const off = journal.validLength;
      throw new Error(
        `journal ${journalFile} is damaged at byte ${off} of ${off + journal.tornBytes}, with ` +
          `${journal.laterRecords} intact records after the damage; it was not changed and the server ` +
          `will not start on it. Either ${restoreAdvice(dir)}, ` +
          `or move the journal aside and keep the ${journal.records} records before the damage ` +
          `(mv ${journalFile} ${journalFile}.damaged && head -c ${off} ${journalFile}.damaged > ${journalFile}); ` +
          `the records after it are then lost.`,
      );
    } else if (journal.tornBytes > 0) {
      this.warn(
        `journal: dropped a torn last record (${journal.tornBytes} bytes after byte ${journal.validLength} ` +
          `of ${journalFile}, a write cut short by a crash); the ${journal.records} records before it are kept`,
      );
    }
    this.journal = new Journal(
      dir,
      this.options.fsync ?? 'interval',
      this.options.fsyncIntervalMs ?? 100,
      stale ? 0 : journal.validLength,
      generation,
      this.warn,
    );
    return { replayed: snapshot.records + journal.records, tornBytes: stale ? 0 : journal.tornBytes };
  }

  close(): void {
    try {
      this.flush();
      this.journal?.close();
    } finally {
      this.journal = undefined;
      this.releaseLock?.();
      this.releaseLock = undefined;
    }
  }

  // ---- journal ----

  /** Queues a journal record for the current command, with how to take its change back. */
  private record(r: Document, undo: () => void): void {
    this.changes++;
    if (!this.journal) return;
    this.pending.push(r);
    this.undo.push(undo);
  }

  /**
   * Writes everything recorded by the current command before its reply goes out. If that fails,
   * the command's changes are undone and a MongoDB error is thrown for the client instead.
   */
  flush(): void {
    if (!this.journal || this.pending.length === 0) return;
    const records = this.pending;
    const undo = this.undo;
    this.pending = [];
    this.undo = [];
    try {
      if (this.rescuePending || this.journal.detached()) {
        // The new snapshot holds this command's changes too, so its records are not appended.
        this.rescue();
      } else this.journal.append(records);
    } catch (err) {
      for (const u of undo.reverse()) u();
      throw this.refuse(err);
    }
    if (this.fault) {
      this.fault = undefined;
      this.warn('disk: a write succeeded again; writes are accepted');
    }
    if (this.journal.bytes > this.compactBytes && Date.now() >= this.compactRetryAt) this.compact();
  }

  /** Turns a failed journal write into the client's error, logging the cause once. */
  private refuse(err: unknown): Error {
    if (!isDiskError(err)) return err as Error;
    const file = err.path ?? this.options.dbPath;
    const line = isSpaceError(err)
      ? `disk full: writes refused until space is freed (path ${file}, ${err.code})`
      : `disk error: writes refused until the disk works again (path ${file}, ${err.code}: ${err.message})`;
    if (this.fault !== line) this.warn(line);
    this.fault = line;
    return errors.diskFault(line, isSpaceError(err));
  }

  /** Between commands (housekeeping): notices a deleted data folder even when nothing writes. */
  checkDataDir(): void {
    if (!this.journal || !(this.rescuePending || this.journal.detached())) return;
    try {
      this.rescue();
      if (this.fault) {
        this.fault = undefined;
        this.warn('disk: the data folder is writable again; writes are accepted');
      }
    } catch (err) {
      this.refuse(err);
    }
  }

  /**
   * The data folder (or journal.wal) was deleted while the server ran: every write would now go to
   * a file no restart can find. Memory still holds all the data, so recreate the folder from it.
   */
  private rescue(): void {
    const dir = this.options.dbPath!;
    const journal = this.journal!;
    if (!this.rescuePending)
      this.warn(
        `data folder ${dir} (or its journal) was deleted while the server ran: recreating it from memory`,
      );
    this.rescuePending = true;
    secureDataDir(dir);
    this.releaseLock?.();
    this.releaseLock = undefined;
    this.releaseLock = acquireLock(dir);
    journal.reopen();
    journal.compact(this.snapshotRecords());
    this.rescuePending = false;
    this.warn(
      `data folder ${dir} recreated with everything held in memory; nothing acknowledged was lost. ` +
        'Stop the server before deleting its data folder if a fresh start was meant.',
    );
  }

  compact(): void {
    if (!this.journal) return;
    const started = Date.now();
    try {
      this.journal.compact(this.snapshotRecords());
    } catch (err) {
      // The write that triggered this is already in the journal, so it stays acknowledged; the
      // journal just keeps growing until a snapshot fits.
      this.compactRetryAt = Date.now() + COMPACT_RETRY_MS;
      const e = err as NodeJS.ErrnoException;
      this.warn(
        `${isSpaceError(err) ? 'disk full' : 'disk error'}: could not write a snapshot ` +
          `(path ${e.path ?? this.options.dbPath}, ${e.code ?? e.message}); the journal still holds ` +
          `every write and grows until a snapshot fits; next try in ${COMPACT_RETRY_MS / 1000} s`,
      );
      return;
    }
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
      case 'collMod': {
        const coll = this.getCollection(r.db, r.coll);
        if (coll) Object.assign(coll.options, r.options);
        break;
      }
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

  /** The collection as `txn` sees it (its own uncommitted creations included), else as committed. */
  getCollection(db: string, name: string, txn?: Transaction): Collection | undefined {
    if (txn && txn.created.size > 0) {
      const mine = txn.created.get(`${db}.${name}`);
      if (mine) return mine;
    }
    return this.dbs.get(db)?.get(name);
  }

  createCollection(db: string, name: string, options: Doc = {}, txn?: Transaction): Collection {
    validateName(db, name);
    if (this.getCollection(db, name, txn)) throw errors.namespaceExists(`${db}.${name}`);
    if (txn) {
      // Private until commit; two open transactions creating one namespace: the second conflicts.
      const ns = `${db}.${name}`;
      const other = this.pendingCreates.get(ns);
      if (other && other !== txn && other.state === 'active') throw errors.writeConflict();
      const coll = new Collection(db, name, options);
      coll.owner = txn;
      txn.created.set(ns, coll);
      this.pendingCreates.set(ns, txn);
      return coll;
    }
    const hadDb = this.dbs.has(db);
    const coll = new Collection(db, name, options);
    this.collections(db).set(name, coll);
    this.record({ op: 'create', db, coll: name, options }, () => {
      if (hadDb) this.dbs.get(db)?.delete(name);
      else this.dbs.delete(db);
    });
    return coll;
  }

  /** The collection writes go to, created when missing; a view is refused (166). */
  ensureCollection(db: string, name: string, txn?: Transaction): Collection {
    const coll = this.getCollection(db, name, txn);
    if (coll?.isView) throw errors.viewNotCollection(coll.ns);
    return coll ?? this.createCollection(db, name, {}, txn);
  }

  dropCollection(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    const coll = colls?.get(name);
    if (!colls || !coll) return false;
    colls.delete(name);
    this.record({ op: 'drop', db, coll: name }, () => this.collections(db).set(name, coll));
    return true;
  }

  dropDatabase(db: string): void {
    const colls = this.dbs.get(db);
    if (!colls) return;
    this.dbs.delete(db);
    this.record({ op: 'dropDatabase', db }, () => this.dbs.set(db, colls));
  }

  renameCollection(db: string, from: string, to: string, dropTarget: boolean): void {
    const coll = this.getCollection(db, from);
    if (!coll) throw errors.namespaceNotFound(`Source collection ${db}.${from} does not exist`);
    if (coll.isView) throw errors.viewNotCollection(coll.ns);
    if (this.getCollection(db, to)) {
      if (!dropTarget) throw errors.namespaceExists(`${db}.${to}`);
      this.dropCollection(db, to);
    }
    validateName(db, to);
    this.dbs.get(db)!.delete(from);
    coll.name = to;
    this.collections(db).set(to, coll);
    this.record({ op: 'rename', db, from, to }, () => {
      this.dbs.get(db)?.delete(to);
      coll.name = from;
      this.collections(db).set(from, coll);
    });
  }

  /** collMod: changes collection options (validator, validationLevel, validationAction). */
  setOptions(coll: Collection, patch: Doc): void {
    const before: Doc = {};
    for (const k of Object.keys(patch)) before[k] = coll.options[k];
    Object.assign(coll.options, patch);
    this.record({ op: 'collMod', db: coll.db, coll: coll.name, options: patch }, () => {
      for (const [k, v] of Object.entries(before)) {
        if (v === undefined) delete coll.options[k];
        else coll.options[k] = v;
      }
    });
  }

  createIndex(coll: Collection, spec: IndexSpec): void {
    coll.addIndex(spec);
    if (coll.owner) return; // journaled with the transaction that created the collection
    this.record({ op: 'createIndex', db: coll.db, coll: coll.name, spec }, () => coll.dropIndex(spec.name));
  }

  dropIndex(coll: Collection, name: string): void {
    const spec = coll.indexes.find((i) => i.spec.name === name)?.spec;
    coll.dropIndex(name);
    this.record({ op: 'dropIndex', db: coll.db, coll: coll.name, name }, () => {
      if (spec) coll.addIndex(spec);
    });
  }

  // ---- reads ----

  /**
   * Matching documents in natural order, seen through `txn`'s private writes when given. An array,
   * not a generator: every caller wants them all, and a point query pays for no iterator protocol.
   */
  matching(coll: Collection, filter: Doc, txn?: Transaction, stats?: ScanStats): Matched[] {
    return this.matchingInOrder(coll, filter, txn, undefined, stats).matched;
  }

  /**
   * Matching documents, in `order.sort`'s order when an index walk gives it (`sorted`), and then
   * only the first `order.want` of them: the walk stops there. A transaction or snapshot read that
   * must see its own writes or older versions of this collection's documents gets them in natural
   * order (`sorted` false), and the caller sorts them.
   */
  matchingInOrder(
    coll: Collection,
    filter: Doc,
    txn: Transaction | undefined,
    order: { sort: Doc; want?: number } | undefined,
    stats?: ScanStats,
  ): { matched: Matched[]; sorted: boolean } {
    const out: Matched[] = [];
    const overlay = txn?.writes.get(coll);
    // Documents written since the transaction began are read at their version from its start.
    const history = txn && coll.history.size > 0 ? coll.history : undefined;
    const sort = order && !overlay && !history ? order.sort : undefined;
    const { plan, docs, sorted } = coll.candidates(filter, sort, stats);
    if (stats) {
      stats.plan = plan;
      stats.sorted = sorted;
    }
    const want = sorted ? order?.want : undefined;
    for (const doc of docs) {
      // The canonical _id (a hex string for an ObjectId) is only needed to consult a transaction's
      // overlay or history; a plain read has neither.
      if (overlay || history) {
        const id = idKeyOf(doc);
        if (overlay?.has(id) || history?.has(id)) continue;
      }
      if (stats) stats.examined++;
      const state: MatchState = {};
      if (!matchDocument(doc, filter, state)) continue;
      out.push({ doc, position: state.position });
      if (want !== undefined && out.length >= want) break;
    }
    if (history) {
      for (const id of history.keys()) {
        if (overlay?.has(id)) continue;
        const doc = coll.versionAt(id, txn!.startSeq);
        if (!doc) continue;
        const state: MatchState = {};
        if (matchDocument(doc, filter, state)) out.push({ doc, position: state.position });
      }
    }
    if (overlay) {
      for (const doc of overlay.values()) {
        if (!doc) continue;
        const state: MatchState = {};
        if (matchDocument(doc, filter, state)) out.push({ doc, position: state.position });
      }
    }
    return { matched: out, sorted };
  }

  // ---- writes ----

  insert(coll: Collection, doc: Doc, txn?: Transaction): void {
    const size = checkSize(doc);
    const id = idKeyOf(doc);
    if (txn && coll.owner !== txn) return this.txnWrite(coll, id, doc, txn, true);
    coll.insert(doc, id);
    if (txn) return; // into a collection only this transaction can see
    this.committed(coll, id, undefined);
    this.record(putRecord(coll, doc, size), () => coll.remove(id));
  }

  replace(coll: Collection, next: Doc, txn?: Transaction): void {
    const size = checkSize(next);
    const id = idKeyOf(next);
    if (txn && coll.owner !== txn) return this.txnWrite(coll, id, next, txn, false);
    const before = coll.docs.get(id);
    coll.replace(id, next);
    if (txn) return;
    this.committed(coll, id, before);
    this.record(putRecord(coll, next, size), () => restore(coll, id, before));
  }

  delete(coll: Collection, doc: Doc, txn?: Transaction): void {
    const id = idKeyOf(doc);
    if (txn && coll.owner !== txn) return this.txnWrite(coll, id, null, txn, false);
    const before = coll.remove(id);
    if (txn) return;
    this.committed(coll, id, before);
    this.record({ op: 'del', db: coll.db, coll: coll.name, id: doc._id }, () => restore(coll, id, before));
  }

  private committed(coll: Collection, id: string, before: Doc | undefined): void {
    this.seq++;
    if (this.activeTxns.size === 0 && this.readers.size === 0) return;
    const h = coll.history.get(id);
    if (h) h.push({ seq: this.seq, before });
    else coll.history.set(id, [{ seq: this.seq, before }]);
  }

  // ---- transactions ----

  begin(sessionKey: string, txnNumber: bigint): Transaction {
    const txn = new Transaction(sessionKey, txnNumber, this.seq, this.now());
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

  /**
   * A write inside a transaction goes to its private overlay, after the checks MongoDB makes
   * against the transaction's snapshot: an insert of an `_id` the transaction can see (stored
   * before it began, or written by itself) is 11000, as is a unique key held by a document it can
   * see; a key held by a document another client wrote since the snapshot is a WriteConflict.
   */
  private txnWrite(coll: Collection, id: string, doc: Doc | null, txn: Transaction, isInsert: boolean): void {
    this.claim(coll, id, txn);
    let overlay = txn.writes.get(coll);
    if (!overlay) {
      overlay = new Map();
      txn.writes.set(coll, overlay);
    }
    const mine = overlay.has(id) ? overlay.get(id) : coll.versionAt(id, txn.startSeq);
    if (isInsert && mine)
      throw duplicateKey(coll.ns, '_id_', { _id: 1 }, { _id: doc!._id }, coll.idIndex?.spec.collation);
    const uniques = coll.indexes.length > 0 || coll.idIndex ? coll.uniqueIndexes() : [];
    const newKeys = doc ? uniques.map((index) => index.keysFor(doc)) : [];
    if (doc) this.checkUniqueInTxn(coll, id, doc, overlay, txn, uniques, newKeys);
    this.locks.set(`${coll.ns}\u0000${id}`, txn);
    // Keep the transaction's own unique keys current: the old version's keys are freed.
    const previous = overlay.has(id) ? overlay.get(id) : undefined;
    uniques.forEach((index, i) => {
      let held = txn.uniqueKeys.get(index);
      if (!held) {
        held = new Map();
        txn.uniqueKeys.set(index, held);
      }
      if (previous) for (const key of index.keysFor(previous)) if (held.get(key) === id) held.delete(key);
      if (doc) for (const key of newKeys[i]) held.set(key, id);
    });
    overlay.set(id, doc);
  }

  private checkUniqueInTxn(
    coll: Collection,
    id: string,
    doc: Doc,
    overlay: Map<string, Doc | null>,
    txn: Transaction,
    uniques: SecondaryIndex[],
    newKeys: string[][],
  ): void {
    uniques.forEach((index, i) => {
      const held = txn.uniqueKeys.get(index);
      for (const key of newKeys[i]) {
        const owner = held?.get(key);
        if (owner !== undefined && owner !== id) throw index.duplicate(coll.ns, doc, key);
        const holders = index.entries.get(key);
        if (!holders) continue;
        for (const holder of holders) {
          // The transaction's own version of a document decides for it, not the stored one.
          if (holder === id || overlay.has(holder)) continue;
          if (coll.lastWriteSeq(holder) > txn.startSeq) throw errors.writeConflict();
          throw index.duplicate(coll.ns, doc, key);
        }
      }
    });
  }

  commit(txn: Transaction): void {
    if (txn.state !== 'active') return;
    // A collection this transaction created whose name another client took meanwhile.
    for (const coll of txn.created.values()) {
      if (this.getCollection(coll.db, coll.name)) {
        this.abort(txn);
        throw errors.writeConflict();
      }
    }
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
    // Unique keys are checked against the stored documents the transaction did not write (they
    // may have changed since its snapshot) before anything is applied: applying one version at a
    // time would see a key two documents swap as a duplicate.
    try {
      for (const [coll, overlay] of txn.writes)
        for (const [id, doc] of overlay) if (doc) coll.checkUnique(doc, id, overlay);
    } catch {
      // The write-time checks passed against the snapshot, so only a concurrent write can clash.
      this.abort(txn);
      throw errors.writeConflict();
    }
    const undo: Array<[Collection, string, Doc | undefined]> = [];
    const ops: Document[] = [];
    const registered: Array<{ coll: Collection; hadDb: boolean }> = [];
    const created = new Set(txn.created.values());
    for (const coll of txn.created.values()) {
      registered.push({ coll, hadDb: this.dbs.has(coll.db) });
      coll.owner = undefined;
      this.collections(coll.db).set(coll.name, coll);
      ops.push({ op: 'create', db: coll.db, coll: coll.name, options: coll.options });
      for (const index of coll.indexes)
        ops.push({ op: 'createIndex', db: coll.db, coll: coll.name, spec: index.spec });
      for (const doc of coll.docs.values()) {
        ops.push({ op: 'put', db: coll.db, coll: coll.name, doc });
        // Transactions whose snapshot predates this commit must not see these documents.
        undo.push([coll, idKeyOf(doc), undefined]);
      }
    }
    const unregister = () => {
      for (const { coll, hadDb } of registered.reverse()) {
        if (hadDb) this.dbs.get(coll.db)?.delete(coll.name);
        else this.dbs.delete(coll.db);
      }
    };
    try {
      for (const [coll, overlay] of txn.writes) {
        for (const [id, doc] of overlay) {
          const before = coll.docs.get(id);
          if (doc) {
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
      for (const [coll, id, before] of undo.reverse()) if (!created.has(coll)) restore(coll, id, before);
      unregister();
      this.abort(txn);
      throw err;
    }
    this.finish(txn, 'committed');
    for (const [coll, id, before] of undo) this.committed(coll, id, before);
    if (ops.length > 0)
      this.record({ op: 'tx', ops }, () => {
        // Not journaled: the commit did not happen, so a retried commitTransaction must not
        // answer "committed".
        for (const [coll, id, before] of [...undo].reverse())
          if (!created.has(coll)) restore(coll, id, before);
        unregister();
        txn.state = 'aborted';
      });
  }

  /** Aborts transactions older than the limit (MongoDB's transactionLifetimeLimitSeconds). */
  expireTransactions(maxAgeMs: number): void {
    const cutoff = this.now() - maxAgeMs;
    for (const txn of [...this.activeTxns]) if (txn.startedAt < cutoff) this.abort(txn);
  }

  /** Aborts every open transaction of these sessions (killSessions, killAllSessions). */
  abortSessions(isKilled: (sessionKey: string) => boolean): number {
    let aborted = 0;
    for (const txn of [...this.activeTxns])
      if (isKilled(txn.sessionKey)) {
        this.abort(txn);
        aborted++;
      }
    return aborted;
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
    for (const ns of txn.created.keys())
      if (this.pendingCreates.get(ns) === txn) this.pendingCreates.delete(ns);
    this.activeTxns.delete(txn);
    this.dropHistoryIfUnused();
  }

  private dropHistoryIfUnused(): void {
    if (this.activeTxns.size === 0 && this.readers.size === 0)
      for (const colls of this.dbs.values()) for (const c of colls.values()) c.history.clear();
  }

  /**
   * A read-only view of the data as it is now, kept readable (older versions retained) until
   * `closeReader`: what a snapshot read outside a transaction reads from, and reads again at the
   * same atClusterTime.
   */
  openReader(): Transaction {
    const reader = new Transaction('snapshot', 0n, this.seq, this.now());
    this.readers.add(reader);
    return reader;
  }

  closeReader(reader: Transaction): void {
    if (this.readers.delete(reader)) this.dropHistoryIfUnused();
  }

  /** A transaction that reads as of an open reader's snapshot (startTransaction with atClusterTime). */
  beginAt(sessionKey: string, txnNumber: bigint, reader: Transaction): Transaction {
    const txn = new Transaction(sessionKey, txnNumber, reader.startSeq, this.now());
    this.activeTxns.add(txn);
    return txn;
  }
}

/** How to get back to a good state from `npm run backup` output (scripts/restore.mjs). */
function restoreAdvice(dir: string): string {
  return (
    `move the data folder aside (mv ${dir} ${dir}.damaged) and restore the latest backup into it ` +
    `(npm run restore -- <backup folder, e.g. .data/backups/<time>> --dbpath ${dir})`
  );
}

/** Puts back the committed version of a document (or its absence). */
function restore(coll: Collection, id: string, before: Doc | undefined): void {
  if (before) coll.put(before);
  else coll.remove(id);
}

function validateName(db: string, name: string): void {
  if (!name || name.includes('$') || name.startsWith('.') || name.includes('\0'))
    throw errors.invalidNamespace(`Invalid collection name: ${name}`);
  if (!db || /[/\\. "$]/.test(db)) throw errors.invalidNamespace(`Invalid database name: ${db}`);
}

/** The document's encoded size, refused past MongoDB's limit. */
function checkSize(doc: Doc): number {
  const size = BSON.calculateObjectSize(doc);
  if (size > MAX_BSON_SIZE) throw errors.tooLarge(size);
  return size;
}

// A put record's fields besides its document, encoded: types, names, lengths and terminators
// (42 bytes) with room to spare; its two names are bounded by 3 UTF-8 bytes per UTF-16 unit.
const PUT_RECORD_FIELDS = 64;

/** The journal record of a stored document, with the bound its measured size gives (SIZE_BOUND). */
function putRecord(coll: Collection, doc: Doc, docBytes: number): Document {
  const bound = docBytes + PUT_RECORD_FIELDS + 3 * (coll.db.length + coll.name.length);
  return { op: 'put', db: coll.db, coll: coll.name, doc, [SIZE_BOUND]: bound };
}

export { MongoServerError };
