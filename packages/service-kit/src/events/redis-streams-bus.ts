import { type EventEnvelope, deadLetterTopic, eventEnvelopeSchema } from '@lsp/contracts';
import { Redis } from 'ioredis';
import { awaitHandlersAtClose, checkNewSubscription, silentLogger } from './adapter';
import { backoffDelay, errorMessage, sleep } from './retry';
import {
  DEFAULT_RETRY,
  type DeadLetterInfo,
  type EventBus,
  type EventBusOptions,
  type EventLogger,
  type RetryPolicy,
  type Subscription,
  instanceSubscription,
  processInstanceId,
} from './types';

export interface RedisStreamsBusOptions extends EventBusOptions {
  redisUrl: string;
  /** Prepended to every stream key (`<prefix><type>`), so environments and tests can share a Redis. */
  prefix?: string;
  /** Approximate length each stream is trimmed to on every publish (`MAXLEN ~`). */
  maxLen?: number;
  /**
   * How long one XREADGROUP waits at most (default 60 s). It answers as soon as an entry arrives; a
   * scan of the pending entries or a retry that falls due sooner cuts it short.
   */
  blockMs?: number;
  batchSize?: number;
  /**
   * An entry another consumer has held unacknowledged this long is taken over: that consumer is
   * presumed dead. Must exceed the longest handler run, or a slow handler's entry is processed twice.
   */
  claimIdleMs?: number;
  /**
   * How often the pending entries list is scanned for abandoned entries (default 5 s). A failed
   * entry's retry does not wait for it: the scan is brought forward to when its backoff ends.
   */
  claimIntervalMs?: number;
  /**
   * A scan that finds no pending entry, with nothing read since, doubles the wait before the next,
   * up to this (default twelve times `claimIntervalMs`, one minute): an idle consumer then wakes Redis
   * once a minute instead of every 5 s. An entry read or seen pending brings it back to
   * `claimIntervalMs`.
   */
  maxClaimIntervalMs?: number;
  /** Names this process within its consumer groups; unique per process by default. */
  consumerName?: string;
}

type StreamEntry = [id: string, fields: string[]];

const RETRY_SCAN_MARGIN_MS = 20;

/**
 * The wait before a consumer's next scan of its pending entries: back to the base interval when the
 * last scan saw pending entries, else double the last wait, up to `maxMs`.
 */
export function nextClaimInterval(
  lastMs: number,
  pendingSeen: number,
  baseMs: number,
  maxMs: number,
): number {
  if (pendingSeen > 0) return baseMs;
  return Math.min(Math.max(baseMs, maxMs), Math.max(baseMs, lastMs * 2));
}
type PendingEntry = [id: string, consumer: string, idleMs: number, deliveries: number];

/**
 * Quits politely when connected; never disconnects an ended connection again, which would leave
 * ioredis waiting `disconnectTimeout` for a socket close that already happened.
 */
async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status === 'ready') {
    await connection.quit().catch(() => undefined);
    if ((connection.status as string) === 'end') return;
  }
  connection.disconnect();
}

function fieldsToRecord(fields: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) record[fields[i]] = fields[i + 1];
  return record;
}

/**
 * Redis Streams adapter: one stream per event type, one consumer group per service. An entry is
 * acknowledged only after its handler resolves; a failed entry stays in the group's pending list and is
 * claimed again after an exponential backoff, its delivery count (kept by Redis, so it survives crashes)
 * deciding when it goes to `<type>.dlq`. Entries a crashed consumer left pending are claimed by a live
 * one after `claimIdleMs`.
 */
export class RedisStreamsEventBus implements EventBus {
  readonly kind = 'redis' as const;
  readonly prefix: string;
  private readonly producer: Redis;
  /** Acks, claims and dead-letter writes wait for Redis to come back rather than fail. */
  private readonly worker: Redis;
  private readonly consumers: RedisStreamConsumer[] = [];
  private readonly logger: EventLogger;
  private readonly retry: RetryPolicy;
  private readonly maxLen: number;
  private producerConnecting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private started = false;

  constructor(private readonly options: RedisStreamsBusOptions) {
    this.prefix = options.prefix ?? 'events:';
    this.logger = options.logger ?? silentLogger;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.maxLen = options.maxLen ?? 100_000;
    // The producer fails fast while Redis is down so the outbox relay (or an API) sees the failure at
    // once instead of queueing commands in memory.
    this.producer = new Redis(options.redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    });
    this.worker = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
    for (const connection of [this.producer, this.worker]) {
      connection.on('error', (err) => this.logger.debug({ err }, 'event bus redis connection error'));
    }
  }

  streamKey(type: string): string {
    return `${this.prefix}${type}`;
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    const valid = eventEnvelopeSchema.parse(envelope);
    await this.connectProducer();
    await this.producer.xadd(
      this.streamKey(valid.type),
      'MAXLEN',
      '~',
      String(this.maxLen),
      '*',
      'type',
      valid.type,
      'id',
      valid.id,
      'envelope',
      JSON.stringify(envelope),
    );
    this.options.metrics?.onPublished(valid.type);
  }

  subscribe(subscription: Subscription): void {
    checkNewSubscription(subscription, this.started);
    const consumerName = this.options.consumerName ?? processInstanceId();
    this.consumers.push(
      new RedisStreamConsumer({
        subscription: instanceSubscription(subscription, consumerName),
        consumerName,
        keys: subscription.types.map((type) => this.streamKey(type)),
        prefix: this.prefix,
        worker: this.worker,
        // A blocked socket is dropped rather than ended politely on close: Redis would hold it until BLOCK ends.
        blocking: new Redis(this.options.redisUrl, {
          lazyConnect: true,
          maxRetriesPerRequest: null,
          disconnectTimeout: 0,
        }),
        retry: this.retry,
        logger: this.logger,
        metrics: this.options.metrics,
        maxLen: this.maxLen,
        // Each wake-up of an idle consumer is a Redis round trip in every service: kept rare.
        blockMs: this.options.blockMs ?? 60_000,
        batchSize: this.options.batchSize ?? 10,
        claimIdleMs: this.options.claimIdleMs ?? 30_000,
        claimIntervalMs: this.options.claimIntervalMs ?? 5000,
        maxClaimIntervalMs: this.options.maxClaimIntervalMs ?? (this.options.claimIntervalMs ?? 5000) * 12,
      }),
    );
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.consumers.length === 0) return;
    await this.worker.connect().catch((err) => {
      // ioredis keeps reconnecting in the background; consumers start once it is back.
      this.logger.warn({ err }, 'event bus: redis unreachable at start, will keep trying');
    });
    await Promise.all(this.consumers.map((consumer) => consumer.start()));
  }

  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    const closeTimeoutMs = this.options.closeTimeoutMs ?? 10_000;
    const stopped = Promise.all(this.consumers.map((consumer) => consumer.stop()));
    await awaitHandlersAtClose(stopped, closeTimeoutMs, this.logger);
    for (const consumer of this.consumers) consumer.disconnect();
    await Promise.all(this.consumers.map((consumer) => consumer.forgetInstanceGroups()));
    for (const connection of [this.producer, this.worker]) await closeConnection(connection);
  }

  async ping(): Promise<void> {
    await this.connectProducer();
    await this.producer.ping();
  }

  /** Every publish issued while the first connection is being made waits for it (there is no offline queue). */
  private async connectProducer(): Promise<void> {
    if (this.producer.status === 'wait') {
      this.producerConnecting ??= this.producer.connect().finally(() => {
        this.producerConnecting = undefined;
      });
    }
    if (this.producerConnecting) await this.producerConnecting;
  }
}

interface ConsumerSettings {
  subscription: Subscription;
  consumerName: string;
  keys: string[];
  prefix: string;
  worker: Redis;
  blocking: Redis;
  retry: RetryPolicy;
  logger: EventLogger;
  metrics: EventBusOptions['metrics'];
  maxLen: number;
  blockMs: number;
  batchSize: number;
  claimIdleMs: number;
  claimIntervalMs: number;
  maxClaimIntervalMs: number;
}

/** One subscription's loop on its own blocking connection (XREADGROUP BLOCK holds the connection). */
class RedisStreamConsumer {
  private running = false;
  private loop: Promise<void> | undefined;
  private nextScanAt = 0;
  /** The wait between the last scan and the next: longer while the consumer is idle. */
  private scanIntervalMs: number;
  private groupsReady = false;

  constructor(private readonly s: ConsumerSettings) {
    this.scanIntervalMs = s.claimIntervalMs;
    s.blocking.on('error', (err) => s.logger.debug({ err }, 'event bus blocking connection error'));
  }

  private get group() {
    return this.s.subscription.consumerGroup;
  }

  /**
   * Resolves once the consumer groups exist when Redis answers; when it does not, the loop creates them
   * as soon as it is back, so a service still boots (and reports the outage on /health).
   */
  async start(): Promise<void> {
    await this.s.blocking.connect().catch(() => undefined);
    this.groupsReady =
      this.s.worker.status === 'ready' &&
      (await this.ensureGroups().then(
        () => true,
        () => false,
      ));
    this.running = true;
    this.loop = this.run();
  }

  /** Stops fetching and resolves once the entries already fetched have been handled. */
  async stop(): Promise<void> {
    this.running = false;
    // Interrupts a waiting XREADGROUP; a handler in progress is unaffected (acks use the worker connection).
    this.disconnect();
    await this.loop;
  }

  disconnect(): void {
    if (this.s.blocking.status !== 'end') this.s.blocking.disconnect();
  }

  /** An every-instance subscription's groups go with the instance (see `Subscription.everyInstance`). */
  async forgetInstanceGroups(): Promise<void> {
    if (!this.s.subscription.everyInstance || this.s.worker.status !== 'ready') return;
    for (const key of this.s.keys)
      await this.s.worker.xgroup('DESTROY', key, this.group).catch(() => undefined);
  }

  /**
   * A new group starts at the beginning of the retained stream, so events published before a service's
   * first start (or by its outbox while it was being deployed) still reach it.
   */
  private async ensureGroups(): Promise<void> {
    for (const key of this.s.keys) {
      try {
        await this.s.worker.xgroup('CREATE', key, this.group, '0', 'MKSTREAM');
      } catch (err) {
        if (!String((err as Error).message).startsWith('BUSYGROUP')) throw err;
      }
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        if (!this.groupsReady) {
          await this.ensureGroups();
          this.groupsReady = true;
        }
        if (Date.now() >= this.nextScanAt) {
          // Set first: a delivery that fails during the scan brings the next one forward.
          this.nextScanAt = Date.now() + this.scanIntervalMs;
          const pendingSeen = await this.retryPending();
          this.scanIntervalMs = nextClaimInterval(
            this.scanIntervalMs,
            pendingSeen,
            this.s.claimIntervalMs,
            this.s.maxClaimIntervalMs,
          );
          if (pendingSeen > 0) this.scanSoon();
        }
        const batch = await this.readNew();
        if (batch.length > 0) this.scanSoon();
        for (const [key, id, fields] of batch) await this.deliver(key, id, fields, 1);
      } catch (err) {
        if (!this.running) break;
        const message = String((err as Error).message);
        if (message.startsWith('NOGROUP')) {
          // The stream or group was deleted (a flushed or replaced Redis): recreate and carry on.
          this.groupsReady = false;
        } else {
          this.s.logger.warn({ err, group: this.group }, 'event bus: consumer loop error');
          await sleep(500);
        }
      }
    }
  }

  /** Traffic, or entries pending: the next scan comes within the base interval again. */
  private scanSoon(): void {
    this.scanIntervalMs = this.s.claimIntervalMs;
    this.nextScanAt = Math.min(this.nextScanAt, Date.now() + this.s.claimIntervalMs);
  }

  private async readNew(): Promise<Array<[string, string, string[]]>> {
    const reply = (await this.s.blocking.xreadgroup(
      'GROUP',
      this.group,
      this.s.consumerName,
      'COUNT',
      this.s.batchSize,
      'BLOCK',
      // At least 1: BLOCK 0 would wait forever.
      Math.max(1, Math.min(this.s.blockMs, this.nextScanAt - Date.now())),
      'STREAMS',
      ...this.s.keys,
      ...this.s.keys.map(() => '>'),
    )) as Array<[string, StreamEntry[]]> | null;
    const batch: Array<[string, string, string[]]> = [];
    for (const [key, entries] of reply ?? []) {
      for (const [id, fields] of entries) batch.push([key, id, fields]);
    }
    return batch;
  }

  /**
   * Claims pending entries that are due: this consumer's failed ones once their backoff has passed, and
   * any consumer's once idle for `claimIdleMs` (its owner presumed dead). XCLAIM with a minimum idle
   * time is atomic, so two live consumers never both take the same entry; it also counts the delivery.
   */
  private async retryPending(): Promise<number> {
    let seen = 0;
    for (const key of this.s.keys) {
      let start = '-';
      for (let page = 0; page < 10 && this.running; page++) {
        const pending = (await this.s.worker.xpending(
          key,
          this.group,
          'IDLE',
          this.s.retry.initialDelayMs,
          start,
          '+',
          100,
        )) as PendingEntry[];
        seen += pending.length;
        for (const [id, owner, idleMs, deliveries] of pending) {
          if (!this.running) return seen;
          const backoff = backoffDelay(this.s.retry, deliveries);
          const minIdle = owner === this.s.consumerName ? backoff : Math.max(this.s.claimIdleMs, backoff);
          if (idleMs < minIdle) continue;
          const claimed = (await this.s.worker.xclaim(
            key,
            this.group,
            this.s.consumerName,
            minIdle,
            id,
          )) as Array<StreamEntry | null>;
          const entry = claimed[0];
          if (!entry) continue;
          if (owner !== this.s.consumerName) {
            this.s.logger.info(
              { id, key, from: owner, group: this.group },
              'event bus: reclaimed abandoned entry',
            );
          }
          await this.deliver(key, id, entry[1], deliveries + 1);
        }
        if (pending.length < 100) break;
        start = `(${pending[pending.length - 1][0]}`;
      }
    }
    return seen;
  }

  private async deliver(key: string, id: string, rawFields: string[], attempt: number): Promise<void> {
    const type = key.slice(this.s.prefix.length);
    const fields = fieldsToRecord(rawFields);
    let envelope: EventEnvelope;
    try {
      envelope = eventEnvelopeSchema.parse(JSON.parse(fields.envelope ?? '')) as EventEnvelope;
    } catch (err) {
      await this.deadLetter(key, type, id, fields, attempt, `unreadable envelope: ${errorMessage(err)}`);
      return;
    }
    if (attempt > this.s.retry.maxAttempts) {
      // Only a consumer that died while handling it gets here: a message that kills its consumer must
      // not take every instance of the service down in turn.
      const reason = `delivered ${attempt - 1} times without being acknowledged`;
      await this.deadLetter(key, type, id, fields, attempt - 1, reason);
      return;
    }
    try {
      await this.s.subscription.handler(envelope, { attempt, deadLetter: deadLetterInfo(fields) });
    } catch (err) {
      this.s.metrics?.onFailed(type);
      this.s.logger.warn(
        { err, type, eventId: envelope.id, attempt, group: this.group },
        'event handler failed',
      );
      if (attempt >= this.s.retry.maxAttempts) {
        await this.deadLetter(key, type, id, fields, attempt, errorMessage(err));
      } else {
        // Scan again as soon as this entry's backoff is over (the margin lets its idle time pass it).
        const retryAt = Date.now() + backoffDelay(this.s.retry, attempt) + RETRY_SCAN_MARGIN_MS;
        this.nextScanAt = Math.min(this.nextScanAt, retryAt);
      }
      return;
    }
    await this.s.worker.xack(key, this.group, id);
    this.s.metrics?.onConsumed(type, { time: envelope.time, consumerGroup: this.group });
  }

  /** Writes the entry to `<type>.dlq` first, then acknowledges it: a crash in between duplicates, never loses. */
  private async deadLetter(
    key: string,
    type: string,
    id: string,
    fields: Record<string, string>,
    attempts: number,
    error: string,
  ): Promise<void> {
    await this.s.worker.xadd(
      `${this.s.prefix}${deadLetterTopic(type)}`,
      'MAXLEN',
      '~',
      String(this.s.maxLen),
      '*',
      'type',
      fields.type ?? type,
      'id',
      fields.id ?? '',
      'envelope',
      fields.envelope ?? '',
      'error',
      error,
      'consumerGroup',
      this.group,
      'attempts',
      String(attempts),
      'failedAt',
      new Date().toISOString(),
      'sourceEntry',
      id,
    );
    await this.s.worker.xack(key, this.group, id);
    this.s.metrics?.onDeadLettered(type);
    this.s.logger.error({ type, entry: id, attempts, error, group: this.group }, 'event dead-lettered');
  }
}

function deadLetterInfo(fields: Record<string, string>): DeadLetterInfo | undefined {
  if (fields.error === undefined) return undefined;
  return {
    consumerGroup: fields.consumerGroup ?? '',
    attempts: Number(fields.attempts ?? 0),
    error: fields.error,
    failedAt: fields.failedAt ?? '',
  };
}
