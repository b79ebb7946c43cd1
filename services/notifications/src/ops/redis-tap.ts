// The tap on Redis Streams: plain XREAD (no consumer group, so it takes nothing from anyone and
// leaves no pending entries) over every event stream, from where the backfill ended. New streams are
// found by SCAN. History older than the ring is read back with XRANGE.
import { EVENT_TYPES, type EventEnvelope, eventEnvelopeSchema } from '@lsp/contracts';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { TapRecord, TapSource } from './tap';

type StreamEntry = [id: string, fields: string[]];

const DLQ_SUFFIX = '.dlq';

function field(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

export function redisPosition(id: string, type: string): string {
  return `${id}@${type}`;
}

/** Orders Redis entry ids (`<ms>-<seq>`) across streams. */
export function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

export interface RedisTapOptions {
  redisUrl: string;
  prefix: string;
  logger: Logger;
  /** Entries read back per stream at start, so a fresh process has something to replay. */
  backfillPerStream?: number;
  /** The longest one XREAD waits (default: until the next discovery); it answers as soon as an entry arrives. */
  blockMs?: number;
  /** How often SCAN looks for streams of event types not in the catalogue. */
  discoverEveryMs?: number;
}

export class RedisStreamsTap implements TapSource {
  readonly kind = 'redis' as const;
  private readonly blocking: Redis;
  readonly commands: Redis;
  /** Stream key → last id read. */
  private readonly cursors = new Map<string, string>();
  private running = false;
  private loop: Promise<void> | undefined;
  private nextDiscovery = 0;

  constructor(private readonly options: RedisTapOptions) {
    this.blocking = new Redis(options.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: null,
      disconnectTimeout: 0,
    });
    this.commands = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    for (const connection of [this.blocking, this.commands])
      connection.on('error', (err) => options.logger.debug({ err }, 'ops tap: redis connection error'));
  }

  private typeOf(key: string): string {
    return key.slice(this.options.prefix.length);
  }

  private toRecord(key: string, [id, fields]: StreamEntry): TapRecord | null {
    const type = this.typeOf(key);
    const json = field(fields, 'envelope');
    if (json === undefined) return null;
    try {
      const envelope = eventEnvelopeSchema.parse(JSON.parse(json)) as EventEnvelope;
      return { position: redisPosition(id, type), envelope, json, order: id };
    } catch {
      return null; // the consumers dead-letter an unreadable entry; the feed shows envelopes only
    }
  }

  /** Event stream keys: the catalogue's, and any other `<prefix>*` stream that is not a dead-letter one. */
  private async discover(): Promise<void> {
    const known = new Set(EVENT_TYPES.map((type) => `${this.options.prefix}${type}`));
    let cursor = '0';
    do {
      const [next, keys] = await this.commands.scan(
        cursor,
        'MATCH',
        `${this.options.prefix}*`,
        'COUNT',
        500,
        'TYPE',
        'stream',
      );
      cursor = next;
      for (const key of keys) if (!key.endsWith(DLQ_SUFFIX)) known.add(key);
    } while (cursor !== '0');
    // A stream found now was created after the last look: read it from its start.
    for (const key of known) if (!this.cursors.has(key)) this.cursors.set(key, '0-0');
  }

  async start(onRecords: (records: TapRecord[]) => void): Promise<void> {
    await this.commands.connect().catch(() => undefined);
    await this.blocking.connect().catch(() => undefined);
    const backfill: TapRecord[] = [];
    try {
      await this.discover();
      for (const key of this.cursors.keys()) {
        const newest = (await this.commands.xrevrange(
          key,
          '+',
          '-',
          'COUNT',
          this.options.backfillPerStream ?? 200,
        )) as StreamEntry[];
        if (newest.length) this.cursors.set(key, newest[0][0]);
        for (const entry of newest) {
          const record = this.toRecord(key, entry);
          if (record) backfill.push(record);
        }
      }
    } catch (err) {
      this.options.logger.warn({ err }, 'ops tap: no backfill (Redis unreachable); the feed starts empty');
    }
    backfill.sort((a, b) => compareIds(a.order, b.order));
    if (backfill.length) onRecords(backfill);
    this.nextDiscovery = Date.now() + (this.options.discoverEveryMs ?? 10_000);
    this.running = true;
    this.loop = this.run(onRecords);
  }

  private async run(onRecords: (records: TapRecord[]) => void): Promise<void> {
    while (this.running) {
      try {
        if (Date.now() >= this.nextDiscovery || this.cursors.size === 0) {
          await this.discover();
          this.nextDiscovery = Date.now() + (this.options.discoverEveryMs ?? 10_000);
        }
        const keys = [...this.cursors.keys()];
        const reply = (await this.blocking.xread(
          'COUNT',
          1000,
          'BLOCK',
          // Idle, the tap wakes only to look for new streams. At least 1: BLOCK 0 would wait forever.
          Math.max(1, Math.min(this.options.blockMs ?? Infinity, this.nextDiscovery - Date.now())),
          'STREAMS',
          ...keys,
          ...keys.map((key) => this.cursors.get(key)!),
        )) as Array<[string, StreamEntry[]]> | null;
        if (!reply) continue;
        const records: TapRecord[] = [];
        for (const [key, entries] of reply) {
          if (entries.length) this.cursors.set(key, entries[entries.length - 1][0]);
          for (const entry of entries) {
            const record = this.toRecord(key, entry);
            if (record) records.push(record);
          }
        }
        records.sort((a, b) => compareIds(a.order, b.order));
        if (records.length) onRecords(records);
      } catch (err) {
        if (!this.running) break;
        this.options.logger.warn({ err }, 'ops tap: read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /**
   * Entries from `fromMs` on (every stream), oldest first, at most `limit` per stream: how a viewer
   * resumes from a position older than the ring.
   */
  async readFrom(fromMs: number, limit: number): Promise<TapRecord[]> {
    const records: TapRecord[] = [];
    for (const key of this.cursors.keys()) {
      const entries = (await this.commands.xrange(key, `${fromMs}-0`, '+', 'COUNT', limit)) as StreamEntry[];
      for (const entry of entries) {
        const record = this.toRecord(key, entry);
        if (record) records.push(record);
      }
    }
    return records.sort((a, b) => compareIds(a.order, b.order));
  }

  /** Looks back through the newest `depth` entries of every stream for one correlation id. */
  async findCorrelation(correlationId: string, depth: number): Promise<TapRecord[]> {
    const found: TapRecord[] = [];
    const needle = `"correlationId":${JSON.stringify(correlationId)}`;
    for (const key of this.cursors.keys()) {
      const entries = (await this.commands.xrevrange(key, '+', '-', 'COUNT', depth)) as StreamEntry[];
      for (const entry of entries) {
        const json = field(entry[1], 'envelope');
        if (!json?.includes(needle)) continue;
        const record = this.toRecord(key, entry);
        if (record?.envelope.correlationId === correlationId) found.push(record);
      }
    }
    return found.sort((a, b) => compareIds(a.order, b.order));
  }

  streamKeys(): string[] {
    return [...this.cursors.keys()];
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.blocking.status !== 'end') this.blocking.disconnect();
    await this.loop;
    if (this.commands.status === 'ready') await this.commands.quit().catch(() => undefined);
    if (this.commands.status !== 'end') this.commands.disconnect();
  }
}
