export * from './types';
export { backoffDelay } from './retry';
export { RedisStreamsEventBus, type RedisStreamsBusOptions } from './redis-streams-bus';
export { KafkaEventBus, type KafkaBusOptions } from './kafka-bus';
export {
  PlatformaticKafkaEventBus,
  type KafkaGroupTimings,
  type PlatformaticKafkaBusOptions,
} from './platformatic-kafka-bus';
export { envelopeToKafkaRecord, kafkaRecordToEnvelope, type KafkaRecord } from './kafka-codec';
export {
  createEventBus,
  eventBusConfigFromEnv,
  eventBusHealthCheck,
  type EventBusConfig,
  type KafkaClient,
} from './create-event-bus';
export {
  type EventOutbox,
  Outbox,
  OutboxRelay,
  type OutboxEntry,
  type OutboxOptions,
  type OutboxRelayOptions,
} from './outbox';
export { ProcessedEvents, type ProcessedEvent, type ProcessedEventsOptions } from './processed-events';
export { isDuplicateKey } from './mongo-errors';
