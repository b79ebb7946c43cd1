/**
 * A consumer process for the crash test: it subscribes, reports on stdout how far its handler got,
 * then hangs until the test kills it with SIGKILL.
 *   CRASH_AFTER=effect   the handler commits its effect (through handleOnce), then hangs before the ack
 *   CRASH_AFTER=start    the handler hangs before doing anything
 */
import mongoose from 'mongoose';
import { ProcessedEvents, RedisStreamsEventBus } from '../src/events';

async function main() {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is required`);
    return value;
  };
  const connection = await mongoose
    .createConnection(env('MONGO_URI'), { dbName: env('MONGO_DB') })
    .asPromise();
  const processed = await ProcessedEvents.open(connection);
  const bus = new RedisStreamsEventBus({ redisUrl: env('REDIS_URL'), prefix: env('PREFIX'), blockMs: 200 });
  bus.subscribe({
    consumerGroup: 'sharing',
    types: [env('EVENT_TYPE')],
    handler: async (envelope, { attempt }) => {
      process.stdout.write(`started ${envelope.id} ${attempt}\n`);
      if (env('CRASH_AFTER') === 'effect') {
        await processed.handleOnce('sharing', envelope, async (session) => {
          await connection.collection('effects').insertOne({ eventId: envelope.id }, { session });
        });
        process.stdout.write(`effect ${envelope.id}\n`);
      }
      await new Promise(() => undefined);
    },
  });
  await bus.start();
  process.stdout.write('ready\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
