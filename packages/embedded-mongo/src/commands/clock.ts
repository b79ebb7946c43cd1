// MongoDB's logical clock for one replica-set member: every reply carries `operationTime` (the
// time of the write it made, or of the last write it read) and `$clusterTime` (the highest time
// known), which is what makes the driver send `afterClusterTime` in a causally consistent
// session. Times are BSON Timestamps (seconds, increment) that only go up.
import { BSON, Binary, Long, Timestamp } from 'bson';
import { errors } from '../errors';
import { EXTRA_ELEMENTS } from '../wire/messages';

export interface Ts {
  t: number;
  i: number;
}

export function compareTs(a: Ts, b: Ts): number {
  return a.t !== b.t ? a.t - b.t : a.i - b.i;
}

export function formatTs(ts: Ts): string {
  return `Timestamp(${ts.t}, ${ts.i})`;
}

export function asTs(v: unknown): Ts | undefined {
  if (typeof v === 'object' && v !== null && (v as { _bsontype?: string })._bsontype === 'Timestamp') {
    const ts = v as Timestamp;
    return { t: ts.t, i: ts.i };
  }
  return undefined;
}

// The server keeps no signing keys (no authentication): MongoDB's unsigned form is a zero hash.
const SIGNATURE = { hash: new Binary(Buffer.alloc(20), 0), keyId: Long.fromNumber(0) };

// `$clusterTime` and `operationTime` as BSON elements (a document's bytes without its length and
// terminator), with both times zero; a reply's copy has its times written at these offsets.
const TEMPLATE = (() => {
  const zero = new Timestamp({ t: 0, i: 0 });
  const doc = BSON.serialize({
    $clusterTime: { clusterTime: zero, signature: SIGNATURE },
    operationTime: zero,
  });
  return Buffer.from(doc.subarray(4, doc.length - 1));
})();
// type byte + '$clusterTime\0' + the subdocument's length, then type byte + 'clusterTime\0'.
const CLUSTER_TIME_AT = 1 + 13 + 4 + 1 + 12;
// The last element's 8-byte value ends the elements.
const OPERATION_TIME_AT = TEMPLATE.length - 8;

export class ClusterClock {
  /** Highest cluster time issued or gossiped by a client. */
  private cluster: Ts;
  /** Time of the last write applied (what a read observes). */
  private lastOp: Ts;

  constructor() {
    this.cluster = { t: Math.floor(Date.now() / 1000), i: 1 };
    this.lastOp = { ...this.cluster };
  }

  /** Time of the last write applied: what a read now observes. */
  get lastApplied(): Ts {
    return this.lastOp;
  }

  /** A time past the cluster time cannot be asked for (MongoDB's 72 InvalidOptions). */
  refuseFuture(ts: Ts, field: string): void {
    if (compareTs(ts, this.cluster) > 0)
      throw errors.invalidOptions(
        `readConcern ${field} value must not be greater than the current clusterTime. ` +
          `Requested clusterTime: ${formatTs(ts)}; current clusterTime: ${formatTs(this.cluster)}`,
      );
  }

  /** A write: a new time after everything known, which becomes the last applied one. */
  tick(): Ts {
    const now = Math.floor(Date.now() / 1000);
    this.cluster = now > this.cluster.t ? { t: now, i: 1 } : { t: this.cluster.t, i: this.cluster.i + 1 };
    this.lastOp = { ...this.cluster };
    return this.lastOp;
  }

  /** A client's `$clusterTime` moves the cluster time forward (never back). */
  gossip(clusterTime: unknown): void {
    const ts = asTs((clusterTime as { clusterTime?: unknown } | undefined)?.clusterTime);
    if (ts) this.advance(ts);
  }

  /** The time of a client's `$clusterTime`, read from its bytes (GOSSIPED_TIME). */
  advance(ts: Ts): void {
    if (compareTs(ts, this.cluster) > 0) this.cluster = { t: ts.t, i: ts.i };
  }

  /**
   * readConcern `afterClusterTime`: a time beyond the cluster time is refused as MongoDB does; one
   * beyond the last write is reached with a no-op write (a primary's way to make it readable).
   */
  waitFor(after: unknown): void {
    const ts = asTs(after);
    if (!ts)
      throw errors.typeMismatch(
        "BSON field 'readConcern.afterClusterTime' is the wrong type, expected type 'timestamp'",
      );
    this.refuseFuture(ts, 'afterClusterTime');
    if (compareTs(ts, this.lastOp) > 0) this.tick();
  }

  // The reply's two fields, encoded once per pair of times and copied into every reply until a
  // time moves (most replies are reads, which move neither).
  private encoded: Buffer | undefined;
  private encodedOp: Ts | undefined;
  private encodedCluster: Ts | undefined;

  /** Adds `$clusterTime` and `operationTime` to a reply (encoded elements the wire layer appends). */
  stamp(reply: Record<string | symbol, unknown>): void {
    // Times are replaced, never changed in place, so identity tells whether one moved.
    if (this.encodedOp !== this.lastOp || this.encodedCluster !== this.cluster) {
      this.encodedOp = this.lastOp;
      this.encodedCluster = this.cluster;
      // A new buffer each time: an earlier reply may still be waiting to be written.
      const out = Buffer.allocUnsafe(TEMPLATE.length);
      TEMPLATE.copy(out);
      out.writeUInt32LE(this.cluster.i, CLUSTER_TIME_AT);
      out.writeUInt32LE(this.cluster.t, CLUSTER_TIME_AT + 4);
      out.writeUInt32LE(this.lastOp.i, OPERATION_TIME_AT);
      out.writeUInt32LE(this.lastOp.t, OPERATION_TIME_AT + 4);
      this.encoded = out;
    }
    reply[EXTRA_ELEMENTS] = this.encoded;
  }
}
