export * from './types';
export { backoffDelay } from './retry';
export { RedisStreamsEventBus, type RedisStreamsBusOptions } from './redis-streams-bus';
export { KafkaEventBus, type KafkaBusOptions } from './kafka-bus';
export { envelopeToKafkaRecord, kafkaRecordToEnvelope, type KafkaRecord } from './kafka-codec';
export {
  createEventBus,
  eventBusConfigFromEnv,
  eventBusHealthCheck,
  type EventBusConfig,
} from './create-event-bus';
