import { type EventEnvelope, deadLetterTopic, eventEnvelopeSchema } from '@lsp/contracts';
import type { Admin, Consumer, ConsumerConfig, EachMessagePayload, Kafka, Producer } from 'kafkajs';
import { awaitHandlersAtClose, checkNewSubscription, silentLogger } from './adapter';
import { envelopeToKafkaRecord } from './kafka-codec';
import {
  deadLetterRecordHeaders,
  deliverWithRetries,
  subscribedTopics,
  warnTopicsNotCreated,
} from './kafka-delivery';
import { sleep } from './retry';
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

export interface KafkaBusOptions extends EventBusOptions {
  brokers: string[];
  clientId: string;
  /** Create the subscribed topics and their `.dlq` topics at start (broker defaults for partitions). */
  createTopics?: boolean;
  /** kafkajs consumer settings (session timeout, fetch wait, ...); the group id comes from the subscription. */
  consumerConfig?: Omit<ConsumerConfig, 'groupId'>;
}

class ConsumerStopping extends Error {}

/**
 * Kafka adapter (kafkajs). Publishes with acks=all; each subscription is one consumer group that
 * commits a message's offset only after its handler has resolved, or after the message went to
 * `<type>.dlq` once the retries were spent. Retries happen in place, which holds back the partition
 * and so keeps one aggregate's events in order.
 */
export class KafkaEventBus implements EventBus {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly logger: EventLogger;
  private readonly retry: RetryPolicy;
  private readonly subscriptions: Subscription[] = [];
  private readonly consumers: Consumer[] = [];
  private producerConnected: Promise<void> | undefined;
  private adminConnected: Promise<void> | undefined;
  private started = false;
  private stopping = false;
  private readonly instance = processInstanceId();

  constructor(private readonly options: KafkaBusOptions) {
    this.logger = options.logger ?? silentLogger;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    // Loaded here, not imported: every process imports service-kit, and on Redis Streams (the
    // single-machine default) none should pay for a Kafka client's memory.
    const { Kafka, Partitioners, logLevel } = require('kafkajs') as typeof import('kafkajs');
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ level, log }) => {
          const { message, ...extra } = log;
          if (level <= logLevel.ERROR) this.logger.error(extra, `kafka: ${message}`);
          else if (level === logLevel.WARN) this.logger.warn(extra, `kafka: ${message}`);
        },
    });
    this.producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    this.admin = this.kafka.admin();
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    const valid = eventEnvelopeSchema.parse(envelope) as EventEnvelope;
    await this.connectProducer();
    await this.producer.send({ topic: valid.type, acks: -1, messages: [envelopeToKafkaRecord(valid)] });
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
    if (this.options.createTopics ?? true) {
      const topics = subscribedTopics(this.subscriptions);
      await this.connectAdmin();
      await this.admin
        .createTopics({ topics: topics.map((topic) => ({ topic })), waitForLeaders: true })
        .catch((err) => warnTopicsNotCreated(this.logger, err, topics));
      // Another process starting at the same moment may have created them a moment ago: their
      // partitions have no leader yet, and subscribing to them now fails the start.
      await this.untilTopicsLed(topics);
    }
    for (const subscription of this.subscriptions) {
      const consumer = this.kafka.consumer({
        ...this.options.consumerConfig,
        groupId: subscription.consumerGroup,
      });
      this.consumers.push(consumer);
      await consumer.connect();
      // A new group reads the retained topic from the start, as the Redis adapter does.
      await consumer.subscribe({ topics: subscription.types, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachMessage: (payload) => this.handleMessage(consumer, subscription, payload),
      });
    }
  }

  async close(): Promise<void> {
    this.stopping = true;
    const closeTimeoutMs = this.options.closeTimeoutMs ?? 10_000;
    // kafkajs' disconnect stops fetching and waits for the message being handled.
    const stopped = Promise.all(this.consumers.map((consumer) => consumer.disconnect()));
    await awaitHandlersAtClose(stopped, closeTimeoutMs, this.logger);
    await this.forgetInstanceGroups();
    await this.producer.disconnect().catch(() => undefined);
    await this.admin.disconnect().catch(() => undefined);
  }

  /** An every-instance subscription's group goes with the instance (see `Subscription.everyInstance`). */
  private async forgetInstanceGroups(): Promise<void> {
    const groups = this.subscriptions.filter((s) => s.everyInstance).map((s) => s.consumerGroup);
    if (groups.length === 0) return;
    await this.connectAdmin()
      .then(() => this.admin.deleteGroups(groups))
      .catch((err) => this.logger.debug({ err, groups }, 'event bus: instance groups not deleted'));
  }

  async ping(): Promise<void> {
    await this.connectAdmin();
    await this.admin.describeCluster();
  }

  private async handleMessage(consumer: Consumer, subscription: Subscription, payload: EachMessagePayload) {
    const { topic, partition, message, heartbeat } = payload;
    await deliverWithRetries({
      subscription,
      topic,
      record: message,
      retry: this.retry,
      logger: this.logger,
      metrics: this.options.metrics,
      backoff: (ms) => this.backoff(ms, heartbeat),
      deadLetter: (attempts, error) => this.deadLetter(subscription, payload, attempts, error),
    });
    await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
    await heartbeat();
  }

  /** Sleeps in slices so the group keeps seeing heartbeats; a close cuts it short without committing. */
  private async backoff(ms: number, heartbeat: () => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (this.stopping) throw new ConsumerStopping('consumer stopping; the message will be redelivered');
      await sleep(Math.min(1000, until - Date.now()));
      await heartbeat();
    }
  }

  private async deadLetter(
    subscription: Subscription,
    payload: EachMessagePayload,
    attempts: number,
    error: string,
  ) {
    const { topic, message } = payload;
    const headers = deadLetterRecordHeaders(message.headers, {
      consumerGroup: subscription.consumerGroup,
      attempts,
      error,
    });
    await this.connectProducer();
    await this.producer.send({
      topic: deadLetterTopic(topic),
      acks: -1,
      messages: [{ key: message.key, value: message.value, headers }],
    });
    this.options.metrics?.onDeadLettered(topic);
    this.logger.error({ type: topic, offset: message.offset, attempts, error }, 'event dead-lettered');
  }

  private async connectProducer(): Promise<void> {
    this.producerConnected ??= this.producer.connect().catch((err) => {
      this.producerConnected = undefined;
      throw err;
    });
    await this.producerConnected;
  }

  /**
   * Waits until each topic exists with a leader on every partition, for as long as a start may take;
   * past that the subscription is left to fail with the broker's own error.
   */
  private async untilTopicsLed(topics: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const led = await this.admin
        .fetchTopicMetadata({ topics })
        .then(
          ({ topics: found }) =>
            found.length === topics.length &&
            found.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0)),
        )
        .catch(() => false);
      if (led || Date.now() > deadline) return;
      await sleep(200);
    }
  }

  private async connectAdmin(): Promise<void> {
    this.adminConnected ??= this.admin.connect().catch((err) => {
      this.adminConnected = undefined;
      throw err;
    });
    await this.adminConnected;
  }
}
