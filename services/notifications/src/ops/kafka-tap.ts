// The tap on Kafka: a consumer in a group of its own (`ops-tap-<instance>`, so every instance sees
// every partition), subscribed to every event topic, starting at the end of each partition less a
// short backfill. It never commits: the group is this process's, and the ring is in memory anyway.
import { EVENT_TYPES, type EventEnvelope } from '@lsp/contracts';
import { kafkaRecordToEnvelope } from '@lsp/service-kit';
import { type Admin, type Consumer, Kafka, logLevel } from 'kafkajs';
import type { Logger } from 'pino';
import type { TapRecord, TapSource } from './tap';

export const KAFKA_TAP_GROUP_PREFIX = 'ops-tap-';

export function kafkaPosition(timestamp: string, partition: number, offset: string, topic: string): string {
  return `${timestamp}-p${partition}o${offset}@${topic}`;
}

/** `{ partition, offset }` of a Kafka feed position, or null. */
export function parseKafkaPosition(
  position: string,
): { topic: string; partition: number; offset: bigint } | null {
  const match = /^\d+-p(\d+)o(\d+)@(.+)$/.exec(position);
  return match ? { partition: Number(match[1]), offset: BigInt(match[2]), topic: match[3] } : null;
}

export interface KafkaTapOptions {
  brokers: string[];
  clientId: string;
  instance: string;
  logger: Logger;
  backfillPerPartition?: number;
  /** kafkajs consumer timings (tests shorten them). */
  consumerConfig?: {
    sessionTimeout?: number;
    rebalanceTimeout?: number;
    heartbeatInterval?: number;
    maxWaitTimeInMs?: number;
  };
}

export class KafkaTap implements TapSource {
  readonly kind = 'kafka' as const;
  readonly kafka: Kafka;
  private consumer: Consumer | undefined;
  private adminClient: Admin | undefined;
  private adminReady: Promise<void> | undefined;
  readonly groupId: string;
  private topics: string[] = [];

  constructor(private readonly options: KafkaTapOptions) {
    this.groupId = `${KAFKA_TAP_GROUP_PREFIX}${options.instance}`;
    this.kafka = new Kafka({
      clientId: `${options.clientId}-ops-tap`,
      brokers: options.brokers,
      logLevel: logLevel.NOTHING,
    });
  }

  /** A connected admin client (lag, committed offsets, topic list). */
  async admin(): Promise<Admin> {
    this.adminClient ??= this.kafka.admin();
    this.adminReady ??= this.adminClient.connect().catch((err) => {
      this.adminReady = undefined;
      throw err;
    });
    await this.adminReady;
    return this.adminClient;
  }

  async start(onRecords: (records: TapRecord[]) => void): Promise<void> {
    const admin = await this.admin();
    const existing = await admin.listTopics().catch(() => [] as string[]);
    this.topics = [
      ...new Set([
        ...EVENT_TYPES,
        ...existing.filter((t) => !t.startsWith('__') && !t.endsWith('.dlq') && !t.startsWith('_')),
      ]),
    ];
    // Subscribing to a topic that does not exist yet fails on brokers that do not auto-create.
    await admin
      .createTopics({ topics: this.topics.map((topic) => ({ topic })), waitForLeaders: true })
      .catch(() => undefined);
    const consumer = this.kafka.consumer({
      groupId: this.groupId,
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
      maxWaitTimeInMs: 250,
      ...this.options.consumerConfig,
    });
    this.consumer = consumer;
    const backfill = BigInt(this.options.backfillPerPartition ?? 200);
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      const assignment = event.payload.memberAssignment as Record<string, number[]>;
      void (async () => {
        for (const [topic, partitions] of Object.entries(assignment)) {
          const offsets = await admin.fetchTopicOffsets(topic).catch(() => []);
          for (const partition of partitions) {
            const found = offsets.find((o) => o.partition === partition);
            if (!found) continue;
            const high = BigInt(found.high);
            const low = BigInt(found.low);
            const from = high - backfill > low ? high - backfill : low;
            consumer.seek({ topic, partition, offset: from.toString() });
          }
        }
      })().catch((err) => this.options.logger.warn({ err }, 'ops tap: backfill seek failed'));
    });
    await consumer.connect();
    await consumer.subscribe({ topics: this.topics, fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const records: TapRecord[] = [];
        for (const message of batch.messages) {
          let envelope: EventEnvelope;
          try {
            envelope = kafkaRecordToEnvelope(message);
          } catch {
            continue;
          }
          const position = kafkaPosition(message.timestamp, batch.partition, message.offset, batch.topic);
          records.push({ position, envelope, order: message.timestamp });
        }
        if (records.length) onRecords(records);
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
    if (this.adminReady) await this.adminClient?.disconnect().catch(() => undefined);
  }
}
