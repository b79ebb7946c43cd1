import { createEnvelope } from '@lsp/contracts';
import {
  KafkaEventBus,
  PlatformaticKafkaEventBus,
  RedisStreamsEventBus,
  backoffDelay,
  createEventBus,
  envelopeToKafkaRecord,
  eventBusConfigFromEnv,
  kafkaRecordToEnvelope,
} from '../src/events';
import { baseConfigSchema } from '../src/config';

describe('Kafka record encoding', () => {
  const envelope = createEnvelope(
    'dip',
    {
      type: 'dip.created',
      subject: 'dip-42',
      data: { dipId: 'dip-42', loan: 350_000 },
      correlationId: 'req-1',
    },
    new Date('2026-03-01T10:00:00.000Z'),
  );

  it('puts the subject in the key, the metadata in ce_ headers and only data in the value', () => {
    const record = envelopeToKafkaRecord(envelope);
    expect(record.key).toBe('dip-42');
    expect(JSON.parse(record.value)).toEqual({ dipId: 'dip-42', loan: 350_000 });
    expect(record.headers).toEqual({
      ce_specversion: '1.0',
      ce_id: envelope.id,
      ce_type: 'dip.created',
      ce_source: '/services/dip',
      ce_time: '2026-03-01T10:00:00.000Z',
      ce_subject: 'dip-42',
      ce_dataschema: '/schemas/dip.created/v1',
      'content-type': 'application/json',
      correlationId: 'req-1',
    });
  });

  it('reads back the same envelope from Buffers, as kafkajs delivers them', () => {
    const record = envelopeToKafkaRecord(envelope);
    const headers = Object.fromEntries(Object.entries(record.headers).map(([k, v]) => [k, Buffer.from(v)]));
    expect(
      kafkaRecordToEnvelope({ key: Buffer.from(record.key), value: Buffer.from(record.value), headers }),
    ).toEqual(envelope);
  });

  it('leaves out correlationId when the event has none', () => {
    const plain = createEnvelope('search', { type: 'search.completed', subject: 's-1', data: null });
    const record = envelopeToKafkaRecord(plain);
    expect(record.headers).not.toHaveProperty('correlationId');
    expect(kafkaRecordToEnvelope(record)).toEqual({ ...plain, correlationId: undefined });
  });

  it('refuses a record without envelope headers', () => {
    expect(() => kafkaRecordToEnvelope({ key: 'k', value: '{}', headers: {} })).toThrow();
  });
});

describe('backoffDelay', () => {
  it('doubles from the initial delay and stops at the maximum', () => {
    const policy = { maxAttempts: 10, initialDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(policy, attempt))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });
});

describe('choosing the adapter', () => {
  const base = {
    SERVICE_NAME: 'sharing',
    REDIS_URL: 'redis://127.0.0.1:6379',
    EVENT_STREAM_PREFIX: 'events:',
  };

  it('uses Redis Streams with the configured prefix by default', async () => {
    const config = eventBusConfigFromEnv({ ...base, EVENT_BUS: 'redis' });
    expect(config).toEqual({ kind: 'redis', redisUrl: 'redis://127.0.0.1:6379', prefix: 'events:' });
    const bus = createEventBus(config);
    expect(bus).toBeInstanceOf(RedisStreamsEventBus);
    await bus.close();
  });

  it('uses Kafka (kafkajs by default) with the service name as client id when EVENT_BUS=kafka', async () => {
    const config = eventBusConfigFromEnv({ ...base, EVENT_BUS: 'kafka', KAFKA_BROKERS: 'k1:9092, k2:9092' });
    expect(config).toEqual({
      kind: 'kafka',
      client: 'kafkajs',
      brokers: ['k1:9092', 'k2:9092'],
      clientId: 'sharing',
    });
    const bus = createEventBus(config);
    expect(bus.kind).toBe('kafka');
    expect(bus).toBeInstanceOf(KafkaEventBus);
    await bus.close();
  });

  it('uses @platformatic/kafka behind the same port when KAFKA_CLIENT=platformatic', async () => {
    const config = eventBusConfigFromEnv({
      ...base,
      EVENT_BUS: 'kafka',
      KAFKA_BROKERS: 'k1:9092',
      KAFKA_CLIENT: 'platformatic',
    });
    expect(config).toMatchObject({ kind: 'kafka', client: 'platformatic', brokers: ['k1:9092'] });
    const bus = createEventBus(config);
    expect(bus.kind).toBe('kafka');
    expect(bus).toBeInstanceOf(PlatformaticKafkaEventBus);
    await bus.close();
  });

  it('accepts the base service config as parsed at boot', () => {
    const config = baseConfigSchema.parse({
      SERVICE_NAME: 'dip',
      PORT: '4003',
      INTERNAL_SECRET: 'a-long-enough-internal-secret',
    });
    expect(eventBusConfigFromEnv(config)).toEqual({
      kind: 'redis',
      redisUrl: 'redis://127.0.0.1:6379',
      prefix: 'events:',
    });
  });
});
