// The event tap: one reader of every event stream per notifications process, feeding a ring of recent
// events and the live viewers. Replay, resume and the correlation view read the ring first.
import { type EventEnvelope, OPS_FEED_REPLAY } from '@lsp/contracts';
import type { Logger } from 'pino';
import { type FeedEntry, type FeedFilter, FeedHub, FeedRing, matchesFilter, positionTime } from './feed';
import { displayedEnvelope } from './redact';

/** One event read from the broker. `order` sorts records of one read (Redis id or Kafka timestamp). */
export interface TapRecord {
  position: string;
  envelope: EventEnvelope;
  json?: string;
  order: string;
}

export interface TapSource {
  readonly kind: 'redis' | 'kafka';
  start(onRecords: (records: TapRecord[]) => void): Promise<void>;
  stop(): Promise<void>;
  /** Records from `fromMs` on, when the broker keeps history that can be read back (Redis). */
  readFrom?(fromMs: number, limit: number): Promise<TapRecord[]>;
  findCorrelation?(correlationId: string, depth: number): Promise<TapRecord[]>;
}

export class EventTap {
  readonly ring: FeedRing;
  readonly hub: FeedHub;
  private started = false;

  constructor(
    readonly source: TapSource,
    readonly options: { ringSize: number; clientBuffer: number; logger: Logger; instance: string },
  ) {
    this.ring = new FeedRing(options.ringSize);
    this.hub = new FeedHub(options.clientBuffer);
  }

  get instance(): string {
    return this.options.instance;
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.source.start((records) => this.ingest(records));
    this.started = true;
  }

  /** Adds what the broker delivered to the ring and hands the new entries to the viewers. */
  ingest(records: TapRecord[]): FeedEntry[] {
    const added = this.ring.append(records);
    if (added.length) this.hub.publish(added);
    return added;
  }

  async stop(): Promise<void> {
    for (const viewer of this.hub.viewers) viewer.closed = true;
    await this.source.stop();
  }

  /**
   * What a viewer is sent when it connects: after `lastEventId` when given (the ring, else the
   * broker's history from that millisecond on), else the last OPS_FEED_REPLAY matching events.
   */
  async backlog(filter: FeedFilter, lastEventId: string | undefined): Promise<FeedEntry[]> {
    if (!lastEventId) return this.ring.last(OPS_FEED_REPLAY, filter);
    const fromRing = this.ring.after(lastEventId, filter);
    if (fromRing) return fromRing;
    const time = positionTime(lastEventId);
    if (time !== null && this.source.readFrom) {
      try {
        const records = await this.source.readFrom(time, this.hub.clientBuffer);
        const known = new Map<string, FeedEntry>();
        let seq = 0;
        for (const record of records) {
          if (record.position === lastEventId) continue;
          const envelope = displayedEnvelope(record.envelope);
          known.set(record.position, {
            position: record.position,
            envelope,
            json: JSON.stringify(envelope),
            seq: --seq,
            receivedAt: Date.now(),
          });
        }
        // Then the ring from its start, without repeats: the viewer continues into the live feed. (Computed
        // after the last await, so nothing the tap ingests before the viewer is registered is missed.)
        const tail = this.ring.last(this.ring.size, { type: [] }).filter((e) => !known.has(e.position));
        return [...known.values(), ...tail].filter((e) => matchesFilter(e.envelope, filter));
      } catch (err) {
        this.options.logger.warn({ err }, 'ops tap: history unreadable; replaying the ring');
      }
    }
    return this.ring.last(OPS_FEED_REPLAY, filter);
  }
}
