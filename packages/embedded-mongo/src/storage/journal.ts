// Append-only journal: each record is [u32 length][u32 crc32c][BSON payload]. A record is
// written before the client hears "ok"; fsync follows the configured policy. On start the
// snapshot is loaded, then the journal replayed; a torn last record is cut off, but damage with
// intact records after it stops start-up (see readFramed). A failed append is cut back off the
// file, so a restart never replays a write the client was told had failed.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { BSON, Document } from 'bson';
import { crc32c } from '../wire/crc32c';
import { DESERIALIZE_OPTIONS } from '../wire/messages';

export type FsyncPolicy = 'always' | 'interval' | 'never';

const HEADER = 8;

// The journal and snapshot hold every document, password hashes included: only the server's own
// user may read them. Modes passed to open() only apply to new files, so existing ones (made by an
// older version, or copied in with a umask of 022) are fixed at open by secureDataDir.
export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;
const DATA_FILES = ['journal.wal', 'snapshot.bin', 'snapshot.tmp', 'mongod.lock'];

/**
 * Creates dbPath (0700) or tightens an existing one, and makes every data file in it 0600.
 * Returns whether the folder had to be created (the caller says so: it means starting empty).
 */
export function secureDataDir(dir: string): { created: boolean } {
  const created = !fs.existsSync(dir);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
    // mkdir's mode is filtered by the umask and ignored for a directory that already exists.
    fs.chmodSync(dir, DATA_DIR_MODE);
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    for (const name of DATA_FILES) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) fs.chmodSync(file, DATA_FILE_MODE);
    }
  } catch (err) {
    // Keeps the code and path, so a running server treats it as a disk fault (writes refused).
    const e = err as NodeJS.ErrnoException;
    throw Object.assign(new Error(dataDirProblem(dir, err)), { code: e.code, path: e.path ?? dir });
  }
  return { created };
}

const WHAT: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOTDIR: 'part of the path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EIO: 'input/output error from the disk',
};

/** One line a person can act on, instead of a stack trace, when dbPath cannot be used. */
export function dataDirProblem(dir: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const code = e?.code ?? 'error';
  const what = WHAT[code] ?? (e instanceof Error ? e.message : String(err));
  const where = e?.path && e.path !== dir ? `, at ${e.path}` : '';
  const fix = isSpaceError(err)
    ? 'free some space on that disk and start again'
    : `make it a folder this user (uid ${process.getuid?.() ?? '?'}) can write ` +
      `(mkdir -p ${dir} && chmod 700 ${dir}), or start with another --dbpath`;
  return `cannot use data folder ${dir}: ${what} (${code}${where}). Fix: ${fix}.`;
}

/** Errors of the disk itself: the write is refused, and the server keeps serving reads. */
export function isDiskError(err: unknown): err is NodeJS.ErrnoException {
  return typeof (err as NodeJS.ErrnoException)?.code === 'string';
}

export function isSpaceError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * Test seam: every journal and snapshot write goes through this, so a test can make one fail
 * with ENOSPC (or write half and then fail) without filling a real disk.
 */
export const fileWrites = {
  write: (fd: number, buf: Buffer, offset: number, length: number, position: number | null): number =>
    fs.writeSync(fd, buf, offset, length, position),
};

// bson serialises through one shared buffer (17 MiB by default); a transaction commit record can be
// larger than any single document, so the buffer grows to fit it.
let serializeBufferSize = 17 * 1024 * 1024;

/**
 * Set on a record by a writer that has measured its document already (every write is held to the
 * 16 MiB limit before it is applied): at least the record's encoded size, so that `frame` does not
 * walk the whole document a second time to size its buffers.
 */
export const SIZE_BOUND = Symbol('sizeBound');

export function frame(record: Document): Buffer {
  const size = (record as Record<symbol, number | undefined>)[SIZE_BOUND] ?? BSON.calculateObjectSize(record);
  if (size > serializeBufferSize) {
    serializeBufferSize = size + 1024 * 1024;
    BSON.setInternalBufferSize(serializeBufferSize);
  }
  // Encoded straight behind the header: one copy out of bson's buffer instead of two.
  const out = Buffer.allocUnsafe(HEADER + size);
  const length = BSON.serializeWithBufferAndIndex(record, out, { index: HEADER }) + 1 - HEADER;
  out.writeUInt32LE(length, 0);
  out.writeUInt32LE(crc32c(out, HEADER, HEADER + length), 4);
  return length === size ? out : out.subarray(0, HEADER + length);
}

export interface ReadResult {
  records: number;
  /** Byte offset after the last intact record. */
  validLength: number;
  /** Bytes after validLength: a torn last record, or (with laterRecords > 0) damage mid-file. */
  tornBytes: number;
  /** Intact records found after the damaged spot: more than 0 means it is not a torn tail. */
  laterRecords: number;
}

/** Whether a whole, intact record starts at `off` (header, BSON length and checksum agree). */
function recordAt(buf: Buffer, off: number): number {
  if (off + HEADER + 5 > buf.length) return 0;
  const len = buf.readUInt32LE(off);
  if (len < 5 || off + HEADER + len > buf.length) return 0;
  // A BSON document starts with its own length: a cheap filter before the checksum.
  if (buf.readUInt32LE(off + HEADER) !== len) return 0;
  if (crc32c(buf, off + HEADER, off + HEADER + len) !== buf.readUInt32LE(off + 4)) return 0;
  return HEADER + len;
}

/** Counts intact records after a damaged spot, resynchronising byte by byte (only run on damage). */
function countLaterRecords(buf: Buffer, from: number): number {
  for (let off = from; off + HEADER + 5 <= buf.length; off++) {
    let size = recordAt(buf, off);
    if (size === 0) continue;
    let count = 0;
    while (size > 0) {
      count++;
      off += size;
      size = recordAt(buf, off);
    }
    return count;
  }
  return 0;
}

/**
 * Reads framed records, handing each to `apply` as soon as it is decoded (holding 100,000 decoded
 * records at once doubles memory and garbage-collection time during start-up). Stops at the first
 * damaged record and reports whether intact records follow it.
 */
export function readFramed(file: string, apply: (record: Document) => void): ReadResult {
  if (!fs.existsSync(file)) return { records: 0, validLength: 0, tornBytes: 0, laterRecords: 0 };
  const buf = fs.readFileSync(file);
  let records = 0;
  let off = 0;
  while (off + HEADER <= buf.length) {
    const size = recordAt(buf, off);
    if (size === 0) break;
    let record: Document;
    try {
      record = BSON.deserialize(buf.subarray(off + HEADER, off + size), DESERIALIZE_OPTIONS);
    } catch {
      break;
    }
    apply(record);
    records++;
    off += size;
  }
  const tornBytes = buf.length - off;
  const laterRecords = tornBytes > 0 ? countLaterRecords(buf, off + 1) : 0;
  return { records, validLength: off, tornBytes, laterRecords };
}

export class Journal {
  readonly dir: string;
  private fd: number;
  private size: number;
  private readonly policy: FsyncPolicy;
  private readonly warn: (msg: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;
  private closed = false;
  private dirty = false;
  private syncing = false;
  private syncFailed = false;
  /** A failed append could not be cut back off the file: do that before writing anything else. */
  private cutPending = false;
  /** A snapshot was written but the journal not yet emptied: do that before the next append. */
  private resetPending = false;

  /** Identifies this journal's generation; the snapshot names the generation that follows it. */
  private generation: string;

  constructor(
    dir: string,
    policy: FsyncPolicy,
    intervalMs: number,
    validLength: number,
    generation: string,
    warn: (msg: string) => void = () => undefined,
  ) {
    this.generation = generation;
    this.dir = dir;
    this.policy = policy;
    this.warn = warn;
    const file = this.journalFile;
    this.fd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+', DATA_FILE_MODE);
    // Cut a torn tail so new records follow the last intact one.
    fs.ftruncateSync(this.fd, validLength);
    this.size = validLength;
    this.intervalMs = intervalMs;
    if (validLength === 0) this.append([{ op: 'journalStart', generation }]);
  }

  /**
   * With the `interval` policy, a write is synced within `intervalMs`: the timer is set by the first
   * write after a sync, so an idle server has no timer waking it.
   */
  private scheduleSync(): void {
    if (this.policy !== 'interval' || this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sync();
    }, this.intervalMs);
    this.timer.unref();
  }

  get journalFile(): string {
    return path.join(this.dir, 'journal.wal');
  }

  get bytes(): number {
    return this.size;
  }

  /**
   * Writes the records at the end of the journal, or throws with nothing of them left in the file
   * (a restart must not replay a write the client was told had failed).
   */
  append(records: Document[]): void {
    if (records.length === 0) return;
    if (this.resetPending) this.startGeneration();
    if (this.cutPending) {
      fs.ftruncateSync(this.fd, this.size);
      this.cutPending = false;
    }
    const buf = records.length === 1 ? frame(records[0]) : Buffer.concat(records.map(frame));
    try {
      let written = 0;
      while (written < buf.length)
        written += fileWrites.write(this.fd, buf, written, buf.length - written, this.size + written);
      if (this.policy === 'always') fs.fdatasyncSync(this.fd);
    } catch (err) {
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        this.cutPending = true;
      }
      throw withPath(err, this.journalFile);
    }
    this.size += buf.length;
    if (this.policy !== 'always') {
      this.dirty = true;
      this.scheduleSync();
    }
  }

  /** Periodic fsync runs on the thread pool so the event loop keeps serving requests meanwhile. */
  sync(): void {
    if (!this.dirty || this.syncing) return;
    this.dirty = false;
    this.syncing = true;
    const fd = this.fd;
    fs.fdatasync(fd, (err) => {
      this.syncing = false;
      if (fd !== this.fd) return; // the journal was reopened meanwhile
      // A failed periodic sync is retried on the next tick; close() syncs synchronously anyway.
      // Said once: writes acknowledged since the last good sync are not yet safe from power loss.
      if (err) {
        this.dirty = true;
        if (!this.syncFailed)
          this.warn(
            `disk error: journal fsync failed (${err.code}, path ${this.journalFile}); retrying every tick`,
          );
        this.syncFailed = true;
      } else if (this.syncFailed) {
        this.syncFailed = false;
        this.warn(`disk: journal fsync works again (path ${this.journalFile})`);
      }
      // Writes made while this sync ran, or a failed sync, go at the next tick.
      if (this.dirty) this.scheduleSync();
    });
  }

  /** True when journal.wal was deleted under the server (e.g. `rm -rf` of the data folder). */
  detached(): boolean {
    try {
      return fs.fstatSync(this.fd).nlink === 0;
    } catch {
      return true;
    }
  }

  /** Starts a new, empty journal.wal in (a recreated) dir; the caller then compacts into it. */
  reopen(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // The old file is gone anyway.
    }
    this.fd = fs.openSync(this.journalFile, 'w+', DATA_FILE_MODE);
    this.size = 0;
    this.cutPending = false;
    this.resetPending = true;
  }

  /**
   * Writes the full state as a snapshot, then empties the journal. Throws with the old snapshot
   * and journal untouched if the snapshot cannot be written.
   */
  compact(snapshot: Iterable<Document>): void {
    const next = newGeneration();
    this.writeSnapshot(snapshot, next);
    // The snapshot now holds everything. The journal must be emptied and restarted under the new
    // generation before anything else is appended: records added to the old one would be skipped
    // at the next start as older than the snapshot.
    this.generation = next;
    this.resetPending = true;
    this.startGeneration();
  }

  private writeSnapshot(snapshot: Iterable<Document>, next: string): void {
    const tmp = path.join(this.dir, 'snapshot.tmp');
    let fd: number | undefined;
    try {
      fd = fs.openSync(tmp, 'w', DATA_FILE_MODE);
      // A snapshot.tmp left by a crash keeps its old mode through 'w'; the rename carries it over.
      fs.fchmodSync(fd, DATA_FILE_MODE);
      let chunk: Buffer[] = [frame({ op: 'snapshotStart', journalGeneration: next })];
      let chunkBytes = 0;
      const flushChunk = () => {
        if (chunk.length === 0) return;
        const data = Buffer.concat(chunk);
        let w = 0;
        while (w < data.length) w += fileWrites.write(fd!, data, w, data.length - w, null);
        chunk = [];
        chunkBytes = 0;
      };
      for (const record of snapshot) {
        const f = frame(record);
        chunk.push(f);
        chunkBytes += f.length;
        if (chunkBytes > 4 * 1024 * 1024) flushChunk();
      }
      chunk.push(frame({ op: 'snapshotEnd' }));
      flushChunk();
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fd = undefined;
      fs.renameSync(tmp, path.join(this.dir, 'snapshot.bin'));
    } catch (err) {
      // Leave the old snapshot in place and give the space of the half-written one back.
      try {
        if (fd !== undefined) fs.closeSync(fd);
        fs.rmSync(tmp, { force: true });
      } catch {
        // The next snapshot overwrites it; the original error is the one to report.
      }
      throw withPath(err, tmp);
    }
    syncDir(this.dir);
  }

  private startGeneration(): void {
    fs.ftruncateSync(this.fd, 0);
    this.size = 0;
    this.cutPending = false;
    this.resetPending = false;
    try {
      this.append([{ op: 'journalStart', generation: this.generation }]);
      fs.fsyncSync(this.fd);
    } catch (err) {
      this.resetPending = true;
      throw err;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      fs.fdatasyncSync(this.fd);
    } finally {
      fs.closeSync(this.fd);
    }
  }
}

/** Writes by file descriptor carry no path; the person needs to know which file it was. */
function withPath(err: unknown, file: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && !e.path) e.path = file;
  return err;
}

export function newGeneration(): string {
  return randomUUID();
}

function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  }
}

/** Creates dbPath/mongod.lock, refusing when a live process holds it. */
export function acquireLock(dir: string): () => void {
  const file = path.join(dir, 'mongod.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: DATA_FILE_MODE });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (holder && (holder === process.pid || isAlive(holder))) {
        throw new Error(
          `dbPath ${dir} is in use by another embedded-mongo server (pid ${holder}); stop it or choose another --dbpath`,
        );
      }
      // A stale lock from a process that died (e.g. SIGKILL): take it over.
      fs.unlinkSync(file);
    }
  }
  throw new Error(`could not lock dbPath ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
