import type { Attributes, Context } from '@opentelemetry/api';
import type { EventEnvelope } from '@lsp/contracts';
import { runningTracing } from './state';

/**
 * The trace context an event carries from the request that caused it to the consumers that handle it,
 * in CloudEvents' distributed-tracing extension attributes (`traceparent`, `tracestate`). With tracing
 * off these are no-ops that load nothing.
 */
const api = () => require('@opentelemetry/api') as typeof import('@opentelemetry/api');

/** The active span's context as W3C headers (`traceparent`, `tracestate` when set), or {} when none or off. */
export function activeTraceContext(): { traceparent?: string; tracestate?: string } {
  if (!runningTracing()) return {};
  const { context, propagation } = api();
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent
    ? { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) }
    : {};
}

/** The context an event's `traceparent` names (its span as the remote parent), or the active one. */
function contextOf(envelope: Pick<EventEnvelope, 'traceparent' | 'tracestate'>): Context {
  const { context, propagation } = api();
  if (!envelope.traceparent) return context.active();
  const carrier: Record<string, string> = { traceparent: envelope.traceparent };
  if (envelope.tracestate) carrier.tracestate = envelope.tracestate;
  return propagation.extract(context.active(), carrier);
}

/**
 * Runs a consumer's handler of one event inside a `process <type>` span, a child of the span that
 * wrote the event when it carries a `traceparent`: the consumer's work joins the request's trace.
 */
export async function inEventSpan<T>(
  envelope: EventEnvelope,
  consumerGroup: string,
  handle: () => Promise<T>,
): Promise<T> {
  const tracing = runningTracing();
  if (!tracing) return handle();
  const { context, trace, SpanKind, SpanStatusCode } = api();
  const attributes: Attributes = {
    'messaging.operation.type': 'process',
    'messaging.destination.name': envelope.type,
    'messaging.consumer.group.name': consumerGroup,
    'messaging.message.id': envelope.id,
    'cloudevents.event_id': envelope.id,
    'cloudevents.event_source': envelope.source,
    'cloudevents.event_type': envelope.type,
    'cloudevents.event_subject': envelope.subject,
  };
  const span = tracing.tracer.startSpan(
    `process ${envelope.type}`,
    { kind: SpanKind.CONSUMER, attributes },
    contextOf(envelope),
  );
  try {
    return await context.with(trace.setSpan(contextOf(envelope), span), handle);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

/**
 * BullMQ's `telemetry` option when tracing is on: the job carries the context of the span that added
 * it, and the worker's span of the job is its child.
 */
export function bullmqTelemetry(): import('bullmq').Telemetry | undefined {
  if (!runningTracing()) return undefined;
  const { BullMQOtel } = require('bullmq-otel') as typeof import('bullmq-otel');
  return new BullMQOtel({ tracerName: 'bullmq' });
}

/** Sends the spans still batched; resolves at once when tracing is off. */
export async function flushTracing(): Promise<void> {
  await runningTracing()?.flush();
}
