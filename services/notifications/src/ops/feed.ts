// The live feed's memory: a ring of the last N events the tap saw (in arrival order, each with its
// feed position), and the viewers it fans out to, each with a bounded queue of its own. A viewer that
// cannot keep up loses its oldest waiting events (counted and reported), never slowing the tap.
import {
  type EventEnvelope,
  OPS_RATE_BUCKET_SECONDS,
  OPS_RATE_BUCKETS,
  type OpsFeedClientStats,
  type OpsFeedDropped,
  type OpsFeedStats,
} from '@lsp/contracts';
import { displayedEnvelope } from './redact';

/** One event as the tap saw it. `position` is its stream position (see `positionTime`). */
export interface FeedEntry {
  position: string;
  envelope: EventEnvelope;
  /** The envelope as published (JSON), serialised once for every viewer. */
  json: string;
  /** Arrival order in this process. */
  seq: number;
  /** When the tap received it (ms), for the rate chart and delivery lag. */
  receivedAt: number;
}

export interface FeedFilter {
  type: string[];
  subject?: string;
  correlationId?: string;
}

export function matchesFilter(envelope: EventEnvelope, filter: FeedFilter): boolean {
  if (filter.type.length > 0 && !filter.type.some((prefix) => envelope.type.startsWith(prefix))) return false;
  if (filter.subject !== undefined && envelope.subject !== filter.subject) return false;
  if (filter.correlationId !== undefined && envelope.correlationId !== filter.correlationId) return false;
  return true;
}

/**
 * Positions are `<ms>-<rest>@<topic>`: the Redis entry id (`<ms>-<seq>`) or, on Kafka,
 * `<timestamp>-p<partition>o<offset>`, then the topic. The leading milliseconds order positions across
 * topics well enough to resume from a position this process never saw (another instance's, or one
 * older than the ring): everything from that millisecond on is sent again, and the viewer drops the
 * positions it already has.
 */
export function positionTime(position: string): number | null {
  const match = /^(\d{1,15})-[^@]*@.+$/.exec(position);
  return match ? Number(match[1]) : null;
}

export class FeedRing {
  private readonly entries: FeedEntry[] = [];
  private readonly bySeq = new Map<string, number>();
  private nextSeq = 1;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.length;
  }

  has(position: string): boolean {
    return this.bySeq.has(position);
  }

  /** Adds entries not seen before (by position); returns those added, in order. */
  append(items: Array<{ position: string; envelope: EventEnvelope; json?: string }>): FeedEntry[] {
    const added: FeedEntry[] = [];
    const now = Date.now();
    for (const item of items) {
      if (this.bySeq.has(item.position)) continue;
      // Viewers only ever see the redacted envelope (src/ops/redact.ts).
      const envelope = displayedEnvelope(item.envelope);
      const entry: FeedEntry = {
        position: item.position,
        envelope,
        json: JSON.stringify(envelope),
        seq: this.nextSeq++,
        receivedAt: now,
      };
      this.entries.push(entry);
      this.bySeq.set(entry.position, entry.seq);
      added.push(entry);
    }
    const excess = this.entries.length - this.capacity;
    if (excess > 0) {
      for (const old of this.entries.splice(0, excess)) this.bySeq.delete(old.position);
    }
    return added;
  }

  /** The last `count` entries passing `filter`, oldest first. */
  last(count: number, filter: FeedFilter): FeedEntry[] {
    const found: FeedEntry[] = [];
    for (let i = this.entries.length - 1; i >= 0 && found.length < count; i--) {
      const entry = this.entries[i];
      if (matchesFilter(entry.envelope, filter)) found.push(entry);
    }
    return found.reverse();
  }

  /**
   * Entries passing `filter` that come after `position`: exactly those after it when this ring holds
   * it; otherwise, when the position's time is within the ring, those from that millisecond on;
   * `null` when the position is older than the ring (or unreadable) and history must be asked.
   */
  after(position: string, filter: FeedFilter): FeedEntry[] | null {
    const seq = this.bySeq.get(position);
    if (seq !== undefined) {
      const first = this.entries[0]?.seq ?? seq;
      return this.entries.slice(seq - first + 1).filter((e) => matchesFilter(e.envelope, filter));
    }
    const time = positionTime(position);
    if (time === null) return null;
    const oldest = this.entries[0];
    const oldestTime = oldest ? positionTime(oldest.position) : null;
    if (oldestTime === null || time < oldestTime) return null;
    return this.entries.filter((e) => {
      const t = positionTime(e.position);
      return t !== null && t >= time && e.position !== position && matchesFilter(e.envelope, filter);
    });
  }

  /** Every entry of one correlation id, in arrival order. */
  byCorrelation(correlationId: string): FeedEntry[] {
    return this.entries.filter((e) => e.envelope.correlationId === correlationId);
  }
}

/** Where a viewer's messages go: an SSE response in production, anything with the same calls in tests. */
export interface ViewerSink {
  /** Writes one SSE frame; false when the connection's buffer is full (wait for `onDrain`). */
  write(frame: string): boolean;
  onDrain(listener: () => void): void;
}

export function sseMessage(entry: FeedEntry): string {
  return `id: ${entry.position}\ndata: ${entry.json}\n\n`;
}

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

let viewerCounter = 0;

/**
 * One connected viewer: its filter, a bounded queue, and counters. While its connection accepts
 * writes the queue stays empty; when the connection is full, events wait in the queue, and past
 * `limit` the oldest waiting ones are dropped: a viewer that falls behind skips to the live edge.
 */
export class FeedViewer {
  readonly id = `v${++viewerCounter}-${Date.now().toString(36)}`;
  readonly connectedAt = new Date();
  private readonly queue: FeedEntry[] = [];
  private blocked = false;
  delivered = 0;
  totalDropped = 0;
  /** Drops not yet reported to the viewer. */
  private unreported = 0;
  private lastDroppedId: string | undefined;
  lastEventId: string | null = null;
  closed = false;

  constructor(
    readonly filter: FeedFilter,
    private readonly sink: ViewerSink,
    readonly limit: number,
    private readonly onDropped: (count: number) => void,
  ) {
    sink.onDrain(() => {
      this.blocked = false;
      this.pump();
    });
  }

  get buffered(): number {
    return this.queue.length;
  }

  /** Queues entries (already filtered) and writes what the connection takes. */
  offer(entries: FeedEntry[]): void {
    if (this.closed || entries.length === 0) return;
    for (const entry of entries) {
      this.queue.push(entry);
      // While the connection takes writes nothing waits: only what it refuses counts against the limit.
      if (!this.blocked && this.unreported === 0) this.pump();
    }
    const excess = this.queue.length - this.limit;
    if (excess > 0) {
      const dropped = this.queue.splice(0, excess);
      this.totalDropped += excess;
      this.unreported += excess;
      this.lastDroppedId = dropped[dropped.length - 1]?.position;
      this.onDropped(excess);
    }
    this.pump();
  }

  /** Sends a frame that is not an event (stats, keep-alive) when the connection has room. */
  notice(frame: string): void {
    if (this.closed || this.blocked) return;
    if (!this.sink.write(frame)) this.blocked = true;
  }

  stats(): OpsFeedClientStats {
    return {
      viewerId: this.id,
      delivered: this.delivered,
      dropped: this.totalDropped,
      buffered: this.queue.length,
      lastEventId: this.lastEventId,
    };
  }

  private pump(): void {
    if (this.closed || this.blocked) return;
    if (this.unreported > 0) {
      const notice: OpsFeedDropped = {
        dropped: this.unreported,
        totalDropped: this.totalDropped,
        lastDroppedId: this.lastDroppedId,
      };
      this.unreported = 0;
      if (!this.sink.write(sseEvent('dropped', notice))) {
        this.blocked = true;
        return;
      }
    }
    while (this.queue.length > 0) {
      const entry = this.queue.shift()!;
      this.delivered++;
      this.lastEventId = entry.position;
      if (!this.sink.write(sseMessage(entry))) {
        this.blocked = true;
        return;
      }
    }
  }
}

/** Events per type per bucket, the last OPS_RATE_BUCKETS buckets. */
export class RateBuckets {
  private readonly buckets: Array<{ start: number; counts: Map<string, number> }> = [];

  constructor(
    private readonly bucketMs = OPS_RATE_BUCKET_SECONDS * 1000,
    private readonly keep = OPS_RATE_BUCKETS,
  ) {}

  count(type: string, at = Date.now()): void {
    const start = Math.floor(at / this.bucketMs) * this.bucketMs;
    let bucket = this.buckets[this.buckets.length - 1];
    if (!bucket || bucket.start < start) {
      bucket = { start, counts: new Map() };
      this.buckets.push(bucket);
      if (this.buckets.length > this.keep) this.buckets.splice(0, this.buckets.length - this.keep);
    } else if (bucket.start > start) {
      return; // a late event from an older bucket: not worth reordering for a chart
    }
    bucket.counts.set(type, (bucket.counts.get(type) ?? 0) + 1);
  }

  /** Oldest first, empty buckets included, up to the current one. */
  snapshot(now = Date.now()): OpsFeedStats['rate']['buckets'] {
    const current = Math.floor(now / this.bucketMs) * this.bucketMs;
    const out: OpsFeedStats['rate']['buckets'] = [];
    const byStart = new Map(this.buckets.map((b) => [b.start, b.counts]));
    for (let i = this.keep - 1; i >= 0; i--) {
      const start = current - i * this.bucketMs;
      out.push({ at: new Date(start).toISOString(), counts: Object.fromEntries(byStart.get(start) ?? []) });
    }
    return out;
  }
}

/** The viewers of this process and what the tap hands them. */
export class FeedHub {
  readonly viewers = new Set<FeedViewer>();
  readonly rate = new RateBuckets();
  totalDropped = 0;

  constructor(readonly clientBuffer: number) {}

  addViewer(filter: FeedFilter, sink: ViewerSink): FeedViewer {
    const viewer = new FeedViewer(filter, sink, this.clientBuffer, (count) => {
      this.totalDropped += count;
    });
    this.viewers.add(viewer);
    return viewer;
  }

  removeViewer(viewer: FeedViewer): void {
    viewer.closed = true;
    this.viewers.delete(viewer);
  }

  publish(entries: FeedEntry[]): void {
    for (const entry of entries) this.rate.count(entry.envelope.type, entry.receivedAt);
    for (const viewer of this.viewers) {
      const matching = entries.filter((entry) => matchesFilter(entry.envelope, viewer.filter));
      if (matching.length) viewer.offer(matching);
    }
  }

  stats(instance: string): OpsFeedStats {
    return {
      instance,
      viewers: [...this.viewers].map((viewer) => ({
        ...viewer.stats(),
        connectedAt: viewer.connectedAt.toISOString(),
        filters: {
          type: viewer.filter.type,
          ...(viewer.filter.subject !== undefined ? { subject: viewer.filter.subject } : {}),
          ...(viewer.filter.correlationId !== undefined
            ? { correlationId: viewer.filter.correlationId }
            : {}),
        },
      })),
      totalDropped: this.totalDropped,
      rate: { bucketSeconds: OPS_RATE_BUCKET_SECONDS, buckets: this.rate.snapshot() },
    };
  }
}
