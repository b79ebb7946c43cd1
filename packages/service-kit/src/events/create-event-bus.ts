import { KafkaEventBus, type KafkaBusOptions } from './kafka-bus';
import { PlatformaticKafkaEventBus, type PlatformaticKafkaBusOptions } from './platformatic-kafka-bus';
import { RedisStreamsEventBus, type RedisStreamsBusOptions } from './redis-streams-bus';
import type { EventBus, EventBusOptions } from './types';

export type EventBusConfig =
  | ({ kind: 'redis'; redisUrl: string; prefix?: string } & Omit<
      RedisStreamsBusOptions,
      'redisUrl' | 'prefix'
    >)
  | ({ kind: 'kafka'; client?: 'kafkajs'; brokers: string[]; clientId: string } & Omit<
      KafkaBusOptions,
      'brokers' | 'clientId'
    >)
  | ({ kind: 'kafka'; client: 'platformatic'; brokers: string[]; clientId: string } & Omit<
      PlatformaticKafkaBusOptions,
      'brokers' | 'clientId'
    >);

/**
 * The Kafka client library behind the Kafka adapter (KAFKA_CLIENT); both pass the same contract suite on
 * a real broker, and neither lost or duplicated an event in the chaos runs on Kafka. kafkajs is the
 * default: faster publishing and less broker CPU per event (docs/kafka-clients.md has the figures).
 */
export type KafkaClient = 'kafkajs' | 'platformatic';

/** Picks the adapter from config: Redis Streams on a single machine, Kafka in a cluster. */
export function createEventBus(config: EventBusConfig): EventBus {
  if (config.kind === 'redis') {
    const { kind: _kind, ...options } = config;
    return new RedisStreamsEventBus(options);
  }
  if (config.client === 'platformatic') {
    const { kind: _kind, client: _client, ...options } = config;
    return new PlatformaticKafkaEventBus(options);
  }
  const { kind: _kind, client: _client, ...options } = config;
  return new KafkaEventBus(options);
}

/** The bus config a service gets from the base config variables (EVENT_BUS, REDIS_URL, KAFKA_BROKERS, ...). */
export function eventBusConfigFromEnv(
  config: {
    SERVICE_NAME: string;
    EVENT_BUS: 'redis' | 'kafka';
    REDIS_URL: string;
    KAFKA_BROKERS?: string;
    KAFKA_CLIENT?: KafkaClient;
    EVENT_STREAM_PREFIX: string;
  },
  options: EventBusOptions = {},
): EventBusConfig {
  if (config.EVENT_BUS === 'kafka') {
    const brokers = (config.KAFKA_BROKERS ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    const base = { kind: 'kafka' as const, brokers, clientId: config.SERVICE_NAME, ...options };
    return config.KAFKA_CLIENT === 'platformatic'
      ? { ...base, client: 'platformatic' }
      : { ...base, client: 'kafkajs' };
  }
  return { kind: 'redis', redisUrl: config.REDIS_URL, prefix: config.EVENT_STREAM_PREFIX, ...options };
}

export function eventBusHealthCheck(bus: EventBus) {
  return { name: 'event-bus', check: () => bus.ping() };
}
