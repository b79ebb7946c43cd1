import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type EventEnvelope, dataschemaVersion } from '@lsp/contracts';
import type { Logger } from 'pino';
import { inEventSpan } from '../tracing/context';

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
  /**
   * Every instance of the service gets each event, not one of them: for state each instance keeps in
   * memory (the lender panel searches price on). The instance reads in a group of its own
   * (`<consumerGroup>@<instance>`), deleted when the bus closes, and is handed only the events made
   * from shortly before it subscribed (what came before, it loaded at start; one made in the minute
   * before is handed over again, which the handler must take calmly). A group left by a crashed
   * instance is harmless (no member); the instance's own fallback (a poll) covers an event it missed
   * while it was down.
   */
  everyInstance?: boolean;
  /**
   * The payload version the handler reads of each type it names (`dataschema` `/schemas/<type>/v<n>`).
   * While a producer publishes a new version beside the old, an event of another version is
   * acknowledged without the handler: the same fact reaches it in the version it reads. Absent: every
   * version reaches the handler (the dead-letter collector). Every consumer of a domain's events sets it.
   */
  readsVersion?: number;
}

/** Names this process among the instances of its service. */
export const processInstanceId = () => `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

/**
 * How far before its subscription an every-instance subscriber still takes events: an event is stamped
 * before its transaction commits, so one stamped just before the instance loaded its state may carry
 * a change the load did not see.
 */
export const EVERY_INSTANCE_LOOKBACK_MS = 60_000;

/**
 * The subscription as the adapter reads it: an every-instance one in this instance's own group,
 * which (new, like any group) starts at the beginning of what the broker retains, and skips the
 * events made before the lookback.
 */
export function instanceSubscription(
  declared: Subscription,
  instance: string,
  subscribedAt = Date.now(),
): Subscription {
  const subscription = readingItsVersion(inItsEventSpan(declared));
  if (!subscription.everyInstance) return subscription;
  const from = subscribedAt - EVERY_INSTANCE_LOOKBACK_MS;
  return {
    ...subscription,
    consumerGroup: `${subscription.consumerGroup}@${instance}`,
    handler: async (envelope, context) => {
      if (Date.parse(envelope.time) >= from) await subscription.handler(envelope, context);
    },
  };
}

/** The subscription with each event handled in a span that joins the trace the event carries. */
function inItsEventSpan(subscription: Subscription): Subscription {
  return {
    ...subscription,
    handler: (envelope, context) =>
      inEventSpan(envelope, subscription.consumerGroup, () => subscription.handler(envelope, context)),
  };
}

/** The subscription with events of a version it does not read (`readsVersion`) acknowledged without its handler. */
function readingItsVersion(subscription: Subscription): Subscription {
  const wanted = subscription.readsVersion;
  if (wanted === undefined) return subscription;
  return {
    ...subscription,
    handler: async (envelope, context) => {
      if ((dataschemaVersion(envelope.dataschema) ?? 1) !== wanted) return;
      await subscription.handler(envelope, context);
    },
  };
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
