import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createEnvelope } from '@lsp/contracts';
import { Redis } from 'ioredis';
import { ProcessedEvents, RedisStreamsEventBus } from '../src/events';
import { REDIS_URL, deleteKeysWithPrefix, openTestMongo, uniqueId, waitFor } from './events-helpers';

const prefix = `test:redelivery:${uniqueId()}:`;
let mongo: Awaited<ReturnType<typeof openTestMongo>>;
let processed: ProcessedEvents;
let redis: Redis;

beforeAll(async () => {
  mongo = await openTestMongo();
  processed = await ProcessedEvents.open(mongo.connection);
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await redis.quit();
  await deleteKeysWithPrefix(REDIS_URL, prefix);
  await mongo.stop();
});

/** Starts the crash consumer in its own process and resolves once its handler reached `stage`. */
async function startDoomedConsumer(type: string, crashAfter: 'start' | 'effect') {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'events-crash-consumer.ts')],
    {
      env: {
        ...process.env,
        MONGO_URI: mongo.uri,
        MONGO_DB: mongo.connection.name,
        REDIS_URL,
        PREFIX: prefix,
        EVENT_TYPE: type,
        CRASH_AFTER: crashAfter,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  return { child, exited, output: () => output };
}

describe.each(['start', 'effect'] as const)('a consumer killed mid-handler (after %s)', (crashAfter) => {
  it('has its event redelivered to another consumer of the group, which applies the effect once', async () => {
    const type = `test.${uniqueId()}.dip.created`;
    const doomed = await startDoomedConsumer(type, crashAfter);
    await waitFor(() => doomed.output().includes('ready'), 'the consumer process to start', 30_000);

    const publisher = new RedisStreamsEventBus({ redisUrl: REDIS_URL, prefix });
    const event = createEnvelope('dip', { type, subject: 'dip-1', data: { dipId: 'dip-1' } });
    await publisher.publish(event);
    const stage = crashAfter === 'effect' ? `effect ${event.id}` : `started ${event.id}`;
    await waitFor(() => doomed.output().includes(stage), `the handler to reach "${crashAfter}"`);
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    const effectsBefore = await mongo.connection.collection('effects').countDocuments({ eventId: event.id });
    expect(effectsBefore).toBe(crashAfter === 'effect' ? 1 : 0);

    const attempts: number[] = [];
    const survivor = new RedisStreamsEventBus({
      redisUrl: REDIS_URL,
      prefix,
      blockMs: 200,
      claimIntervalMs: 100,
      claimIdleMs: 500,
    });
    survivor.subscribe({
      consumerGroup: 'sharing',
      types: [type],
      handler: async (envelope, { attempt }) => {
        attempts.push(attempt);
        await processed.handleOnce('sharing', envelope, async (session) => {
          await mongo.connection.collection('effects').insertOne({ eventId: envelope.id }, { session });
        });
      },
    });
    try {
      await survivor.start();
      const pending = async () => ((await redis.xpending(`${prefix}${type}`, 'sharing')) as [number])[0];
      await waitFor(
        async () => attempts.length === 1 && (await pending()) === 0,
        'the redelivery to be acknowledged',
      );
      expect(attempts).toEqual([2]);
      expect(await mongo.connection.collection('effects').countDocuments({ eventId: event.id })).toBe(1);
    } finally {
      await survivor.close();
      await publisher.close();
    }
  });
});
