import { type EventEnvelope, eventEnvelopeSchema } from '@lsp/contracts';
import type { DeadLetterInfo } from './types';

/**
 * How an envelope travels on Kafka, in the CloudEvents Kafka binding's binary mode: metadata in `ce_*`
 * headers, the subject (aggregate id) as the key so one aggregate's events stay in order on one
 * partition, and only `data` as the JSON value.
 */
export interface KafkaRecord {
  key: string;
  value: string;
  headers: Record<string, string>;
}

type HeaderValue = Buffer | string | Array<Buffer | string> | undefined;

export interface IncomingKafkaRecord {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Record<string, HeaderValue>;
}

export function envelopeToKafkaRecord(envelope: EventEnvelope): KafkaRecord {
  const headers: Record<string, string> = {
    ce_specversion: envelope.specversion,
    ce_id: envelope.id,
    ce_type: envelope.type,
    ce_source: envelope.source,
    ce_time: envelope.time,
    ce_subject: envelope.subject,
    ce_dataschema: envelope.dataschema,
    'content-type': envelope.datacontenttype,
  };
  if (envelope.correlationId !== undefined) headers.correlationId = envelope.correlationId;
  if (envelope.traceparent !== undefined) headers.ce_traceparent = envelope.traceparent;
  if (envelope.tracestate !== undefined) headers.ce_tracestate = envelope.tracestate;
  return { key: envelope.subject, value: JSON.stringify(envelope.data ?? null), headers };
}

function headerText(value: HeaderValue): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/** Throws when a record is not an event envelope (it then goes to the dead-letter topic). */
export function kafkaRecordToEnvelope(record: IncomingKafkaRecord): EventEnvelope {
  const h = record.headers ?? {};
  const candidate = {
    specversion: headerText(h.ce_specversion),
    id: headerText(h.ce_id),
    type: headerText(h.ce_type),
    source: headerText(h.ce_source),
    time: headerText(h.ce_time),
    subject: headerText(h.ce_subject) ?? record.key?.toString(),
    dataschema: headerText(h.ce_dataschema),
    datacontenttype: headerText(h['content-type']),
    correlationId: headerText(h.correlationId),
    traceparent: headerText(h.ce_traceparent),
    tracestate: headerText(h.ce_tracestate),
    data: record.value === null ? null : JSON.parse(record.value.toString()),
  };
  return eventEnvelopeSchema.parse(candidate) as EventEnvelope;
}

export function deadLetterHeaders(info: DeadLetterInfo): Record<string, string> {
  return {
    dlq_error: info.error,
    dlq_consumer_group: info.consumerGroup,
    dlq_attempts: String(info.attempts),
    dlq_failed_at: info.failedAt,
  };
}

export function readDeadLetterHeaders(
  headers: Record<string, HeaderValue> | undefined,
): DeadLetterInfo | undefined {
  const error = headerText(headers?.dlq_error);
  if (error === undefined) return undefined;
  return {
    error,
    consumerGroup: headerText(headers?.dlq_consumer_group) ?? '',
    attempts: Number(headerText(headers?.dlq_attempts) ?? 0),
    failedAt: headerText(headers?.dlq_failed_at) ?? '',
  };
}
