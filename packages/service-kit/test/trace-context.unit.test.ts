import { createEnvelope, eventEnvelopeSchema, traceIdOf } from '@lsp/contracts';
import { envelopeToKafkaRecord, kafkaRecordToEnvelope } from '../src/events';
import { activeTraceContext, inEventSpan } from '../src/tracing/context';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('with tracing off', () => {
  it('adds no trace context to events and runs a handler as it is', async () => {
    expect(activeTraceContext()).toEqual({});
    const envelope = createEnvelope('dip', { type: 'dip.created', subject: 'd1', data: {} });
    await expect(inEventSpan(envelope, 'sharing', async () => 'handled')).resolves.toBe('handled');
  });
});

describe('the trace context in the event envelope (CloudEvents distributed tracing)', () => {
  const envelope = { ...createEnvelope('dip', { type: 'dip.created', subject: 'd1', data: {} }) };

  it('is optional, so events written without it still read', () => {
    expect(eventEnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(traceIdOf(envelope)).toBeNull();
  });

  it('takes a W3C traceparent and refuses anything else there', () => {
    expect(eventEnvelopeSchema.parse({ ...envelope, traceparent: TRACEPARENT }).traceparent).toBe(
      TRACEPARENT,
    );
    expect(traceIdOf({ traceparent: TRACEPARENT })).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(eventEnvelopeSchema.safeParse({ ...envelope, traceparent: 'not-a-trace' }).success).toBe(false);
  });

  it('travels on Kafka in ce_traceparent and ce_tracestate headers', () => {
    const traced = { ...envelope, traceparent: TRACEPARENT, tracestate: 'vendor=1' };
    const record = envelopeToKafkaRecord(traced);
    expect(record.headers).toMatchObject({ ce_traceparent: TRACEPARENT, ce_tracestate: 'vendor=1' });
    expect(kafkaRecordToEnvelope(record)).toEqual(traced);
    expect(kafkaRecordToEnvelope(envelopeToKafkaRecord(envelope)).traceparent).toBeUndefined();
  });
});
