import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * The CloudEvents-style envelope every integration event travels in, whatever the broker.
 * `source` + `id` is the duplicate key; `subject` is the aggregate id and the partition key;
 * a breaking change to `data` means a new `dataschema` version, never an edit of the old one.
 */
export const eventEnvelopeSchema = z.object({
  specversion: z.literal('1.0'),
  id: z.string().min(1),
  type: z.string().min(1),
  source: z.string().startsWith('/services/'),
  time: z.string().datetime(),
  subject: z.string().min(1),
  dataschema: z.string().min(1),
  datacontenttype: z.literal('application/json'),
  correlationId: z.string().optional(),
  /**
   * CloudEvents' distributed-tracing extension: the W3C trace context of the span that wrote the event,
   * so a consumer's work joins the trace of the request that caused it. Absent when tracing is off.
   */
  traceparent: z
    .string()
    .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
    .optional(),
  tracestate: z.string().optional(),
  data: z.unknown(),
});

/** The trace an event belongs to: the trace id of its `traceparent`, or null when it carries none. */
export function traceIdOf(envelope: { traceparent?: string }): string | null {
  return envelope.traceparent?.split('-')[1] ?? null;
}

export type EventEnvelope<T = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & { data: T };

export interface NewEvent<T = unknown> {
  type: string;
  subject: string;
  data: T;
  /** Defaults to `/schemas/<type>/v1`. */
  dataschema?: string;
  correlationId?: string;
}

export function createEnvelope<T>(
  serviceName: string,
  event: NewEvent<T>,
  now: Date = new Date(),
): EventEnvelope<T> {
  return {
    specversion: '1.0',
    id: randomUUID(),
    type: event.type,
    source: `/services/${serviceName}`,
    time: now.toISOString(),
    subject: event.subject,
    dataschema: event.dataschema ?? `/schemas/${event.type}/v1`,
    datacontenttype: 'application/json',
    correlationId: event.correlationId,
    data: event.data,
  };
}
