import { kafkaTargetName, startTestKafka } from '../../packages/service-kit/test/kafka-broker';
import { describeEventsKeepUp } from './events-suite';

/** The same as on Redis Streams, every event carried by a real Apache Kafka broker (KAFKA_CLIENT as configured). */
describeEventsKeepUp(`Kafka (${kafkaTargetName()})`, async () => {
  const kafka = await startTestKafka();
  console.info(`system test on Kafka: ${kafka.target}`);
  return { env: { EVENT_BUS: 'kafka', KAFKA_BROKERS: kafka.brokers.join(',') }, stop: () => kafka.stop() };
});
