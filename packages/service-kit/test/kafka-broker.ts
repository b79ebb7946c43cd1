import path from 'node:path';

/**
 * The Kafka broker a test suite runs on: the one at KAFKA_BROKERS when set (compose, testcontainers, a
 * broker from `npm run kafka`), otherwise a real Apache Kafka (KRaft, one JVM) that the suite starts in
 * beforeAll and stops in afterAll through scripts/kafka-broker.mjs: jars from Maven's cache, a fresh
 * folder, free loopback ports, about 2-3 s to start.
 */
export interface TestKafka {
  brokers: string[];
  /** Which broker, for the suite's output. */
  target: string;
  /** Kills the broker (SIGKILL) and starts it again on the same port and data; only for a broker of our own. */
  restart?(): Promise<void>;
  stop(): Promise<void>;
}

/** scripts/kafka-broker.mjs, as the suites here and the kafka-clients bench call it. */
export interface KafkaBrokerModule {
  KAFKA_VERSION: string;
  /** `quickStart: false` runs the JVM fully tuned, as a production broker runs (for benches). */
  startKafkaBroker(options?: { log?: (line: string) => void; quickStart?: boolean }): Promise<{
    brokers: string[];
    version: string;
    startMs: number;
    pid: number | undefined;
    kill(): Promise<void>;
    restart(): Promise<void>;
    stop(): Promise<void>;
  }>;
}

export const KAFKA_BROKER_SCRIPT = path.resolve(__dirname, '../../../scripts/kafka-broker.mjs');

export const kafkaBrokersFromEnv = (): string[] =>
  (process.env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);

// Synchronous, so describe() names can say which broker before beforeAll runs (jest compiles the .mjs).
const kafkaVersion = () => (require(KAFKA_BROKER_SCRIPT) as KafkaBrokerModule).KAFKA_VERSION;

/** The broker the suites of this run use, in words, for describe() names. */
export function kafkaTargetName(): string {
  const fromEnv = kafkaBrokersFromEnv();
  return fromEnv.length
    ? `the Kafka at KAFKA_BROKERS=${fromEnv.join(',')}`
    : `a real Apache Kafka ${kafkaVersion()} broker (KRaft) started by the suite`;
}

/** Call in beforeAll (allow ~30 s the first time on a loaded machine); stop() in afterAll. */
export async function startTestKafka(): Promise<TestKafka> {
  const fromEnv = kafkaBrokersFromEnv();
  if (fromEnv.length) {
    return { brokers: fromEnv, target: kafkaTargetName(), stop: async () => undefined };
  }
  const { startKafkaBroker } = (await import(KAFKA_BROKER_SCRIPT)) as KafkaBrokerModule;
  const broker = await startKafkaBroker({ log: (line) => console.info(line) });
  return {
    brokers: broker.brokers,
    target: `Apache Kafka ${broker.version} (KRaft, started by the suite in ${broker.startMs} ms) at ${broker.brokers.join(',')}`,
    restart: async () => {
      await broker.kill();
      await broker.restart();
    },
    stop: () => broker.stop(),
  };
}
