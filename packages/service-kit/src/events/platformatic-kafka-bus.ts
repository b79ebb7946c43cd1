import { type EventEnvelope, deadLetterTopic, eventEnvelopeSchema } from '@lsp/contracts';
import type { Admin, Consumer, Message, MessagesStream, Producer } from '@platformatic/kafka';
import { awaitHandlersAtClose, checkNewSubscription, silentLogger } from './adapter';
import { envelopeToKafkaRecord } from './kafka-codec';
import {
  deadLetterRecordHeaders,
  deliverWithRetries,
  subscribedTopics,
  warnTopicsNotCreated,
} from './kafka-delivery';
import { settlesWithin, sleep } from './retry';
import {
  DEFAULT_RETRY,
  type EventBus,
  type EventBusOptions,
  type EventLogger,
  type RetryPolicy,
  type Subscription,
  instanceSubscription,
  processInstanceId,
} from './types';

/** Consumer-group timings (milliseconds); the library's defaults when left out. */
export interface KafkaGroupTimings {
  sessionTimeout?: number;
  rebalanceTimeout?: number;
  heartbeatInterval?: number;
  /** Longest a fetch waits on the broker for new records. */
  maxWaitTime?: number;
}

export interface PlatformaticKafkaBusOptions extends EventBusOptions {
  brokers: string[];
  clientId: string;
  /** Create the subscribed topics and their `.dlq` topics at start (broker defaults for partitions). */
  createTopics?: boolean;
  groupTimings?: KafkaGroupTimings;
}

/**
 * The group timings kafkajs uses by default, rather than this library's (session 60 s, rebalance 102 s):
 * a service restarted after a crash joins its group again once the broker has given up on its dead
 * member, so the session timeout is how long its consumers wait (the chaos run on Kafka found restarted
 * services still waiting after a minute with the library's defaults).
 */
const DEFAULT_GROUP_TIMINGS = { sessionTimeout: 30_000, rebalanceTimeout: 60_000, heartbeatInterval: 3_000 };

/** How long a consumer whose fetch stream failed waits before it joins its group again. */
const RESUBSCRIBE_DELAY_MS = 1000;

class ConsumerStopping extends Error {}

type BufferMessage = Message<Buffer, Buffer, Buffer, Buffer>;

interface RunningConsumer {
  consumer: Consumer<Buffer, Buffer, Buffer, Buffer>;
  stream?: MessagesStream<Buffer, Buffer, Buffer, Buffer>;
  /** The message being handled, if any: close waits for it. */
  inFlight?: Promise<void>;
  loop: Promise<void>;
}

/**
 * The client library, loaded when a bus is made rather than imported: every process imports
 * service-kit, and on Redis Streams (the single-machine default) none should hold its ~45 MB.
 */
const platformaticKafka = () => require('@platformatic/kafka') as typeof import('@platformatic/kafka');

/**
 * Kafka adapter on `@platformatic/kafka`, the same behaviour as the kafkajs adapter (the contract suite
 * runs on both): acks=all; one consumer group per subscription; an offset is committed only after the
 * handler resolved or the message went to `<type>.dlq`; retries in place, so one partition (and so one
 * aggregate) stays in order.
 */
export class PlatformaticKafkaEventBus implements EventBus {
  readonly kind = 'kafka' as const;
  private readonly producer: Producer<string, string, string, string>;
  private readonly admin: Admin;
  private readonly logger: EventLogger;
  private readonly retry: RetryPolicy;
  private readonly subscriptions: Subscription[] = [];
  private readonly running: RunningConsumer[] = [];
  private started = false;
  private stopping = false;
  private readonly instance = processInstanceId();

  constructor(private readonly options: PlatformaticKafkaBusOptions) {
    this.logger = options.logger ?? silentLogger;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    const { Admin, ProduceAcks, Producer, stringSerializers } = platformaticKafka();
    const base = { clientId: options.clientId, bootstrapBrokers: options.brokers };
    this.producer = new Producer({ ...base, serializers: stringSerializers, acks: ProduceAcks.ALL });
    this.admin = new Admin(base);
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    const valid = eventEnvelopeSchema.parse(envelope) as EventEnvelope;
    await this.producer.send({ messages: [{ topic: valid.type, ...envelopeToKafkaRecord(valid) }] });
    this.options.metrics?.onPublished(valid.type);
  }

  subscribe(subscription: Subscription): void {
    checkNewSubscription(subscription, this.started);
    this.subscriptions.push(instanceSubscription(subscription, this.instance));
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.subscriptions.length === 0) return;
    if (this.options.createTopics ?? true) await this.createMissingTopics();
    for (const subscription of this.subscriptions) {
      const running: RunningConsumer = { consumer: this.newConsumer(subscription), loop: Promise.resolve() };
      this.running.push(running);
      running.stream = await this.openStream(running, subscription);
      running.loop = this.consume(running, subscription);
    }
  }

  async close(): Promise<void> {
    this.stopping = true;
    const closeTimeoutMs = this.options.closeTimeoutMs ?? 10_000;
    const handling = Promise.all(this.running.map((r) => r.inFlight?.catch(() => undefined)));
    await awaitHandlersAtClose(handling, closeTimeoutMs, this.logger);
    await Promise.all(
      this.running.map(async (r) => {
        await r.stream?.close().catch(() => undefined);
        // force: leave the group even if a stream is still open.
        await new Promise<void>((resolve) => r.consumer.close(true, () => resolve()));
        await settlesWithin(r.loop, closeTimeoutMs);
      }),
    );
    const instanceGroups = this.subscriptions.filter((s) => s.everyInstance).map((s) => s.consumerGroup);
    if (instanceGroups.length)
      await this.admin
        .deleteGroups({ groups: instanceGroups })
        .catch((err) => this.logger.debug({ err }, 'event bus: instance groups not deleted'));
    await this.producer.close().catch(() => undefined);
    await this.admin.close().catch(() => undefined);
  }

  async ping(): Promise<void> {
    await this.admin.metadata({ topics: [] });
  }

  private async createMissingTopics(): Promise<void> {
    const wanted = subscribedTopics(this.subscriptions);
    try {
      const existing = new Set(await this.admin.listTopics());
      const missing = wanted.filter((topic) => !existing.has(topic));
      // -1: the broker's default partitions and replication factor, as the kafkajs adapter does.
      if (missing.length) await this.admin.createTopics({ topics: missing, partitions: -1, replicas: -1 });
    } catch (err) {
      warnTopicsNotCreated(this.logger, err, wanted);
    }
  }

  private newConsumer(subscription: Subscription): Consumer<Buffer, Buffer, Buffer, Buffer> {
    const { Consumer } = platformaticKafka();
    return new Consumer({
      clientId: this.options.clientId,
      bootstrapBrokers: this.options.brokers,
      groupId: subscription.consumerGroup,
      ...DEFAULT_GROUP_TIMINGS,
      ...this.options.groupTimings,
    });
  }

  private openStream(running: RunningConsumer, subscription: Subscription) {
    // A new group reads the retained topic from the start, as the Redis adapter does.
    return running.consumer.consume({
      topics: subscription.types,
      mode: 'committed',
      fallbackMode: 'earliest',
      autocommit: false,
      ...this.options.groupTimings,
    });
  }

  /** One message at a time per subscription: the next is read only once this one is committed. */
  private async consume(running: RunningConsumer, subscription: Subscription): Promise<void> {
    while (!this.stopping) {
      try {
        running.stream ??= await this.openStream(running, subscription);
        for await (const message of running.stream as AsyncIterable<BufferMessage>) {
          if (this.stopping) return;
          running.inFlight = this.handleMessage(subscription, message);
          try {
            await running.inFlight;
          } finally {
            running.inFlight = undefined;
          }
        }
      } catch (err) {
        if (this.stopping || err instanceof ConsumerStopping) return;
        this.logger.error(
          { err, group: subscription.consumerGroup },
          'event bus: consumer stream failed; joining the group again',
        );
      }
      await running.stream?.close().catch(() => undefined);
      running.stream = undefined;
      if (this.stopping) return;
      // A new consumer, not the same one again: after a broker restart the old one keeps a group
      // membership the broker has forgotten, and every commit of it fails (found on a real broker by
      // the kafka-clients bench: the same messages redelivered forever).
      const stale = running.consumer;
      await new Promise<void>((resolve) => stale.close(true, () => resolve()));
      if (this.stopping) return;
      running.consumer = this.newConsumer(subscription);
      await sleep(RESUBSCRIBE_DELAY_MS);
    }
  }

  private async handleMessage(subscription: Subscription, message: BufferMessage): Promise<void> {
    await deliverWithRetries({
      subscription,
      topic: message.topic,
      record: { key: message.key, value: message.value, headers: headerRecord(message) },
      retry: this.retry,
      logger: this.logger,
      metrics: this.options.metrics,
      backoff: (ms) => this.backoff(ms),
      deadLetter: (attempts, error) => this.deadLetter(subscription, message, attempts, error),
    });
    await message.commit();
  }

  /** The group's heartbeats run in the background here; a close cuts the wait short without committing. */
  private async backoff(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (this.stopping) throw new ConsumerStopping('consumer stopping; the message will be redelivered');
      await sleep(Math.min(250, until - Date.now()));
    }
  }

  private async deadLetter(
    subscription: Subscription,
    message: BufferMessage,
    attempts: number,
    error: string,
  ) {
    const { topic } = message;
    const headers = deadLetterRecordHeaders(headerRecord(message), {
      consumerGroup: subscription.consumerGroup,
      attempts,
      error,
    });
    await this.producer.send({
      messages: [
        {
          topic: deadLetterTopic(topic),
          key: message.key?.toString() ?? '',
          value: message.value?.toString() ?? '',
          headers,
        },
      ],
    });
    this.options.metrics?.onDeadLettered(topic);
    this.logger.error(
      { type: topic, offset: message.offset.toString(), attempts, error },
      'event dead-lettered',
    );
  }
}

function headerRecord(message: BufferMessage): Record<string, Buffer> {
  const headers: Record<string, Buffer> = {};
  for (const [name, value] of message.headers ?? []) headers[name.toString()] = value;
  return headers;
}
