// `npm run kafka`: a real Apache Kafka broker (KRaft, broker and controller in one JVM) on 127.0.0.1, on a
// free port (or --port N), until Ctrl-C. It prints KAFKA_BROKERS for `EVENT_BUS=kafka npm start` or the
// tests. `npm run kafka -- --fetch` only fetches the broker's jars with Maven (once; .ci/run does this).
import { parseArgs } from 'node:util';
import { KAFKA_CACHE, KAFKA_VERSION, ensureKafkaJars, startKafkaBroker } from './kafka-broker.mjs';

const { values } = parseArgs({
  options: { fetch: { type: 'boolean' }, port: { type: 'string' }, keep: { type: 'boolean' } },
});
const say = (line) => process.stdout.write(`▸ ${line}\n`);

if (values.fetch) {
  ensureKafkaJars({ log: say });
  say(`Apache Kafka ${KAFKA_VERSION}'s jars are in ${KAFKA_CACHE}/libs`);
  process.exit(0);
}

const broker = await startKafkaBroker({
  port: values.port ? Number(values.port) : undefined,
  keep: values.keep,
  log: say,
});
say(`KAFKA_BROKERS=${broker.brokers.join(',')}   (log: ${broker.logFile}; Ctrl-C stops it)`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  say('Stopping Kafka…');
  await broker.stop();
  say('Kafka stopped');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
