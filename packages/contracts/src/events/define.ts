import type { z } from 'zod';
import { type EventEnvelope, createEnvelope } from './envelope';
import { dataschemaOf } from './dataschema';

/**
 * One event type, declared once beside its payload schema and used by both sides: the producer builds
 * its envelope with `envelope` (the data parsed with the schema first, so no consumer ever receives a
 * shape the contract does not allow) and a consumer reads it back with `read` (parsed again, because a
 * topic may hold what an older or newer producer wrote).
 */
export interface EventDefinition<Schema extends z.ZodType> {
  /** The topic and the envelope's `type`. */
  readonly type: string;
  /** The service that publishes it: the envelope's `source` is `/services/<producer>`. */
  readonly producer: string;
  /** The payload version this definition writes; older versions stay readable through EVENT_SCHEMAS. */
  readonly version: number;
  readonly dataschema: string;
  readonly schema: Schema;
  envelope(
    data: z.input<Schema>,
    options?: { correlationId?: string; now?: Date },
  ): EventEnvelope<z.output<Schema>>;
  read(envelope: Pick<EventEnvelope, 'type' | 'data'>): z.output<Schema>;
}

export function defineEvent<Schema extends z.ZodType>(definition: {
  type: string;
  producer: string;
  schema: Schema;
  /** The aggregate the event is about: the envelope's subject, and so its partition key. */
  subject: (data: z.output<Schema>) => string;
  version?: number;
}): EventDefinition<Schema> {
  const { type, producer, schema, subject } = definition;
  const version = definition.version ?? 1;
  const dataschema = dataschemaOf(type, version);
  return {
    type,
    producer,
    version,
    dataschema,
    schema,
    envelope(data, options = {}) {
      const parsed = schema.parse(data);
      return createEnvelope(
        producer,
        { type, subject: subject(parsed), data: parsed, dataschema, correlationId: options.correlationId },
        options.now,
      );
    },
    read(envelope) {
      if (envelope.type !== type) throw new Error(`expected a ${type} event, got ${envelope.type}`);
      return schema.parse(envelope.data);
    },
  };
}
