// MongoDB's logical clock for one replica-set member: every reply carries `operationTime` (the
// time of the write it made, or of the last write it read) and `$clusterTime` (the highest time
// known), which is what makes the driver send `afterClusterTime` in a causally consistent
// session. Times are BSON Timestamps (seconds, increment) that only go up.
import { Binary, Long, Timestamp } from 'bson';
import { errors } from '../errors';

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
    if (ts && compareTs(ts, this.cluster) > 0) this.cluster = ts;
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

  // The BSON values of the two times, rebuilt only when a time moves (most replies are reads).
  private opValue: Timestamp | undefined;
  private clusterValue: { clusterTime: Timestamp; signature: typeof SIGNATURE } | undefined;

  /** Adds `operationTime` and `$clusterTime` to a reply. */
  stamp(reply: Record<string, unknown>): void {
    let op = this.opValue;
    if (!op || op.t !== this.lastOp.t || op.i !== this.lastOp.i)
      op = this.opValue = new Timestamp({ t: this.lastOp.t, i: this.lastOp.i });
    let cluster = this.clusterValue;
    if (!cluster || cluster.clusterTime.t !== this.cluster.t || cluster.clusterTime.i !== this.cluster.i)
      cluster = this.clusterValue = {
        clusterTime: new Timestamp({ t: this.cluster.t, i: this.cluster.i }),
        signature: SIGNATURE,
      };
    reply.operationTime = op;
    reply.$clusterTime = cluster;
  }
}
