import type { EventEnvelope } from '@lsp/contracts';
import type { Logger } from 'pino';

/** Where a dead-lettered event came from and why it gave up; present only on `<type>.dlq` deliveries. */
export interface DeadLetterInfo {
  consumerGroup: string;
  attempts: number;
  error: string;
  failedAt: string;
}

export interface DeliveryContext {
  /** 1 on the first delivery, counted by the broker (Redis) or by the consumer (Kafka). */
  attempt: number;
  deadLetter?: DeadLetterInfo;
}

export type EventHandler = (envelope: EventEnvelope, context: DeliveryContext) => Promise<void>;

export interface Subscription {
  /** The service name: every instance of one service shares the group, so each event reaches one of them. */
  consumerGroup: string;
  /** Event types (= topics) to consume; `deadLetterTopic(type)` subscribes to a dead-letter topic. */
  types: string[];
  handler: EventHandler;
}

/** Counters the service wires to Prometheus; each is called with the event type. */
export interface EventBusMetrics {
  onPublished(type: string): void;
  /** With the event's time and the consumer group that handled it, for the propagation histogram. */
  onConsumed(type: string, handled?: { time: string; consumerGroup: string }): void;
  /** Each failed handler attempt. */
  onFailed(type: string): void;
  onDeadLettered(type: string): void;
}

export interface RetryPolicy {
  /** Deliveries before an event goes to `<type>.dlq`. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export type EventLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface EventBusOptions {
  metrics?: EventBusMetrics;
  logger?: EventLogger;
  retry?: Partial<RetryPolicy>;
  /** How long `close()` waits for in-flight handlers before dropping the connections anyway. */
  closeTimeoutMs?: number;
}

/**
 * The port domain code depends on. Delivery is at-least-once: handlers must be idempotent
 * (see `ProcessedEvents.handleOnce`). Subscribe before `start()`.
 */
export interface EventBus {
  readonly kind: 'redis' | 'kafka';
  publish(envelope: EventEnvelope): Promise<void>;
  subscribe(subscription: Subscription): void;
  start(): Promise<void>;
  /** Stops fetching, waits for in-flight handlers (up to `closeTimeoutMs`), then closes connections. */
  close(): Promise<void>;
  /** For `/health`: resolves when the broker answers. */
  ping(): Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 30_000 };
