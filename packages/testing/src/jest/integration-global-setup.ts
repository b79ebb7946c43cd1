import { spawnSync } from 'node:child_process';

/**
 * Chooses the infrastructure the integration tests run on, and says which:
 * - MONGO_URL / REDIS_URL / KAFKA_BROKERS already set: those servers;
 * - a Docker engine answering: real MongoDB (replica set), Redis and Kafka started with testcontainers;
 * - otherwise: the embedded MongoDB (each test file starts its own) and the machine's Redis.
 * Kafka tests run only when KAFKA_BROKERS ends up set.
 */
type Stoppable = { stop(): Promise<unknown> };
const started: Stoppable[] = [];

function dockerEngineAnswers(): boolean {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    stdio: 'pipe',
    timeout: 5000,
  });
  return result.status === 0 && result.stdout.toString().trim() !== '';
}

export default async function integrationGlobalSetup(): Promise<void> {
  const say = (text: string) => process.stdout.write(`\n[integration] ${text}\n`);
  if (process.env.MONGO_URL || process.env.TESTCONTAINERS === 'off' || !dockerEngineAnswers()) {
    say(
      process.env.MONGO_URL
        ? `MongoDB at MONGO_URL; Redis at ${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}`
        : "no Docker engine: embedded MongoDB and the machine's Redis" +
            (process.env.KAFKA_BROKERS
              ? `; Kafka at ${process.env.KAFKA_BROKERS}`
              : '; each Kafka suite starts a real Apache Kafka broker (scripts/kafka-broker.mjs)'),
    );
    return;
  }
  say('Docker engine found: starting MongoDB 7 (rs0), Redis 7 and Kafka with testcontainers');
  const [{ MongoDBContainer }, { RedisContainer }, { KafkaContainer }] = await Promise.all([
    import('@testcontainers/mongodb'),
    import('@testcontainers/redis'),
    import('@testcontainers/kafka'),
  ]);
  const [mongo, redis, kafka] = await Promise.all([
    new MongoDBContainer('mongo:7').start(),
    new RedisContainer('redis:7').start(),
    new KafkaContainer('confluentinc/cp-kafka:7.6.1').withKraft().start(),
  ]);
  started.push(mongo, redis, kafka);
  // The MongoDB module initiates a single-node replica set; directConnection skips host discovery.
  process.env.MONGO_URL = `${mongo.getConnectionString()}/?directConnection=true`;
  process.env.REDIS_URL = redis.getConnectionUrl();
  process.env.KAFKA_BROKERS = `${kafka.getHost()}:${kafka.getMappedPort(9093)}`;
  (globalThis as { __integrationContainers?: Stoppable[] }).__integrationContainers = started;
  say(
    `MONGO_URL=${process.env.MONGO_URL} REDIS_URL=${process.env.REDIS_URL} KAFKA_BROKERS=${process.env.KAFKA_BROKERS}`,
  );
}
