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
  data: z.unknown(),
});

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

/** The event catalogue of DESIGN.md: topic name = event type. */
export const EVENT_TYPES = [
  'identity.user.registered',
  'identity.verification.requested',
  'identity.user.verified',
  'search.completed',
  'search.saved',
  'lead.captured',
  'dip.created',
  'dip.link.regenerated',
  'dip.expiry.changed',
  'dip.revoked',
  'dip.pdf.rendered',
  'application.submitted',
  'share.created',
  'share.viewed',
  'share.revoked',
  'deal.shared',
  'deal.viewed',
  'referral.created',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const deadLetterTopic = (type: string) => `${type}.dlq`;
