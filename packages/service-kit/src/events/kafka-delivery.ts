import { type EventEnvelope, deadLetterTopic } from '@lsp/contracts';
import {
  type IncomingKafkaRecord,
  deadLetterHeaders,
  kafkaRecordToEnvelope,
  readDeadLetterHeaders,
} from './kafka-codec';
import { backoffDelay, errorMessage } from './retry';
import type { EventBusMetrics, EventLogger, RetryPolicy, Subscription } from './types';

/**
 * One record's delivery to a subscription, as both Kafka adapters do it; each adapter brings how it
 * waits between attempts (its heartbeats differ) and how it sends to the dead-letter topic.
 */
export interface KafkaDelivery {
  subscription: Subscription;
  topic: string;
  record: IncomingKafkaRecord;
  retry: RetryPolicy;
  logger: EventLogger;
  metrics: EventBusMetrics | undefined;
  /** Waits before the next attempt; throws when the consumer stops, so the record is not committed. */
  backoff(ms: number): Promise<void>;
  deadLetter(attempts: number, error: string): Promise<void>;
}

/**
 * Hands the record to the handler, retrying in place with backoff (which holds back the partition and so
 * keeps one aggregate's events in order), and dead-letters it once the retries are spent or when it is
 * not an envelope at all. Resolves when the record may be committed.
 */
export async function deliverWithRetries(delivery: KafkaDelivery): Promise<void> {
  const { subscription, topic, record, retry, logger, metrics } = delivery;
  let envelope: EventEnvelope;
  try {
    envelope = kafkaRecordToEnvelope(record);
  } catch (err) {
    await delivery.deadLetter(0, `unreadable envelope: ${errorMessage(err)}`);
    return;
  }
  const deadLetter = readDeadLetterHeaders(record.headers);
  for (let attempt = 1; ; attempt++) {
    try {
      await subscription.handler(envelope, { attempt, deadLetter });
      metrics?.onConsumed(topic, {
        time: envelope.time,
        consumerGroup: subscription.consumerGroup,
      });
      return;
    } catch (err) {
      metrics?.onFailed(topic);
      logger.warn(
        { err, type: topic, eventId: envelope.id, attempt, group: subscription.consumerGroup },
        'event handler failed',
      );
      if (attempt >= retry.maxAttempts) {
        await delivery.deadLetter(attempt, errorMessage(err));
        return;
      }
    }
    await delivery.backoff(backoffDelay(retry, attempt));
  }
}

/** The topics a Kafka bus's subscriptions need: each event type's and its dead-letter topic. */
export function subscribedTopics(subscriptions: Subscription[]): string[] {
  return [...new Set(subscriptions.flatMap((s) => s.types.flatMap((t) => [t, deadLetterTopic(t)])))];
}

/**
 * Creating the topics at start is best effort: brokers that auto-create topics still work, and
 * operations may own topic creation.
 */
export function warnTopicsNotCreated(logger: EventLogger, err: unknown, topics: string[]): void {
  logger.warn({ err, topics }, 'event bus: could not create topics; relying on the broker');
}

/** The record's own headers as text, with the failure's `dlq_*` headers added, for its dead-letter copy. */
export function deadLetterRecordHeaders(
  recordHeaders: IncomingKafkaRecord['headers'],
  failure: { consumerGroup: string; attempts: number; error: string },
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recordHeaders ?? {})) {
    if (value !== undefined) headers[name] = (Array.isArray(value) ? value[0]! : value).toString();
  }
  return Object.assign(headers, deadLetterHeaders({ ...failure, failedAt: new Date().toISOString() }));
}
