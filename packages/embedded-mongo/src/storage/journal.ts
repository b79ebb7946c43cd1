// Append-only journal: each record is [u32 length][u32 crc32c][BSON payload]. A record is
// written before the client hears "ok"; fsync follows the configured policy. On start the
// snapshot is loaded, then the journal replayed; a torn or corrupt tail is cut off.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { BSON, Document } from 'bson';
import { crc32c } from '../wire/crc32c';
import { DESERIALIZE_OPTIONS } from '../wire/messages';

export type FsyncPolicy = 'always' | 'interval' | 'never';

const HEADER = 8;

// bson serialises through one shared buffer (17 MiB by default); a transaction commit record can be
// larger than any single document, so the buffer grows to fit it.
let serializeBufferSize = 17 * 1024 * 1024;

export function frame(record: Document): Buffer {
  const size = BSON.calculateObjectSize(record);
  if (size > serializeBufferSize) {
    serializeBufferSize = size + 1024 * 1024;
    BSON.setInternalBufferSize(serializeBufferSize);
  }
  const payload = BSON.serialize(record);
  const out = Buffer.allocUnsafe(HEADER + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32c(payload), 4);
  out.set(payload, HEADER);
  return out;
}

export interface ReadResult {
  records: number;
  /** Byte offset after the last intact record. */
  validLength: number;
  tornBytes: number;
}

/**
 * Reads framed records, handing each to `apply` as soon as it is decoded (holding 100,000 decoded
 * records at once doubles memory and garbage-collection time during start-up).
 */
export function readFramed(file: string, apply: (record: Document) => void): ReadResult {
  if (!fs.existsSync(file)) return { records: 0, validLength: 0, tornBytes: 0 };
  const buf = fs.readFileSync(file);
  let records = 0;
  let off = 0;
  while (off + HEADER <= buf.length) {
    const len = buf.readUInt32LE(off);
    const sum = buf.readUInt32LE(off + 4);
    if (len < 5 || off + HEADER + len > buf.length) break;
    if (crc32c(buf, off + HEADER, off + HEADER + len) !== sum) break;
    let record: Document;
    try {
      record = BSON.deserialize(buf.subarray(off + HEADER, off + HEADER + len), DESERIALIZE_OPTIONS);
    } catch {
      break;
    }
    apply(record);
    records++;
    off += HEADER + len;
  }
  return { records, validLength: off, tornBytes: buf.length - off };
}

export class Journal {
  readonly dir: string;
  private fd: number;
  private size: number;
  private readonly policy: FsyncPolicy;
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private syncing = false;

  /** Identifies this journal's generation; the snapshot names the generation that follows it. */
  private generation: string;

  constructor(dir: string, policy: FsyncPolicy, intervalMs: number, validLength: number, generation: string) {
    this.generation = generation;
    this.dir = dir;
    this.policy = policy;
    const file = this.journalFile;
    this.fd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+');
    // Cut a torn tail so new records follow the last intact one.
    fs.ftruncateSync(this.fd, validLength);
    this.size = validLength;
    if (validLength === 0) this.append([{ op: 'journalStart', generation }]);
    if (policy === 'interval') {
      this.timer = setInterval(() => this.sync(), intervalMs);
      this.timer.unref();
    }
  }

  get journalFile(): string {
    return path.join(this.dir, 'journal.wal');
  }

  get bytes(): number {
    return this.size;
  }

  append(records: Document[]): void {
    if (records.length === 0) return;
    const buf = records.length === 1 ? frame(records[0]) : Buffer.concat(records.map(frame));
    let written = 0;
    while (written < buf.length)
      written += fs.writeSync(this.fd, buf, written, buf.length - written, this.size + written);
    this.size += buf.length;
    if (this.policy === 'always') fs.fdatasyncSync(this.fd);
    else this.dirty = true;
  }

  /** Periodic fsync runs on the thread pool so the event loop keeps serving requests meanwhile. */
  sync(): void {
    if (!this.dirty || this.syncing) return;
    this.dirty = false;
    this.syncing = true;
    fs.fdatasync(this.fd, (err) => {
      this.syncing = false;
      // A failed periodic sync is retried on the next tick; close() syncs synchronously anyway.
      if (err) this.dirty = true;
    });
  }

  /** Writes the full state as a snapshot, then empties the journal. */
  compact(snapshot: Iterable<Document>): void {
    const tmp = path.join(this.dir, 'snapshot.tmp');
    const next = newGeneration();
    const fd = fs.openSync(tmp, 'w');
    let chunk: Buffer[] = [frame({ op: 'snapshotStart', journalGeneration: next })];
    let chunkBytes = 0;
    const flushChunk = () => {
      if (chunk.length === 0) return;
      const data = Buffer.concat(chunk);
      let w = 0;
      while (w < data.length) w += fs.writeSync(fd, data, w, data.length - w);
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
    fs.renameSync(tmp, path.join(this.dir, 'snapshot.bin'));
    syncDir(this.dir);
    // A crash between the rename and the truncate leaves an old-generation journal, which the
    // next start recognises by its header and skips.
    fs.ftruncateSync(this.fd, 0);
    this.size = 0;
    this.generation = next;
    this.append([{ op: 'journalStart', generation: next }]);
    fs.fsyncSync(this.fd);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    try {
      fs.fdatasyncSync(this.fd);
    } finally {
      fs.closeSync(this.fd);
    }
  }
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
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
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
