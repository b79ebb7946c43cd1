import { ProcessedEvents, RedisStreamsEventBus, createQueue } from '@lsp/service-kit';
import { type TestMongo, type TestRedis, type TestSmtp, startHarness } from '@lsp/testing';
import type { Queue, Worker } from 'bullmq';
import type { Connection } from 'mongoose';
import { type IdentityStack, startIdentityStack } from '../../identity/test/harness';
import { EMAIL_QUEUE, type EmailJob } from '../src/email/jobs';
import { subscribeToIdentityEvents } from '../src/events/consumed';
import { mailBackends, startTestEmailWorker } from './test-app';

/**
 * The whole email path as it runs in production, in this process: identity (its outbox relayed onto
 * the bus), notifications' identity-event handlers, the email queue, the worker and a capturing SMTP
 * server.
 */
export interface EmailPipeline {
  mongo: TestMongo;
  redis: TestRedis;
  smtp: TestSmtp;
  /** Notifications' database. */
  db: Connection;
  /** The bus identity's outbox relays onto; a test may publish on it too. */
  identityBus: RedisStreamsEventBus;
  queue: Queue<EmailJob>;
  worker: Worker<EmailJob>;
  identity: IdentityStack;
  close(): Promise<void>;
}

export function startEmailPipeline(): Promise<EmailPipeline> {
  return startHarness(async (backends) => {
    const { mongo, redis, onClose } = backends;
    const { smtp, db, config } = await mailBackends(backends);
    const identityBus = new RedisStreamsEventBus({ redisUrl: redis.url, prefix: 'events:' });
    onClose(() => identityBus.close());
    const notificationsBus = new RedisStreamsEventBus({
      redisUrl: redis.url,
      prefix: 'events:',
      blockMs: 200,
      claimIntervalMs: 500,
    });
    onClose(() => notificationsBus.close());
    const queue = createQueue<EmailJob>(EMAIL_QUEUE, redis.url);
    onClose(() => queue.close());
    subscribeToIdentityEvents(notificationsBus, await ProcessedEvents.open(db), queue);
    await notificationsBus.start();
    const worker = startTestEmailWorker(config, db, onClose);
    const identity = await startIdentityStack({ mongo, redis, relayTo: identityBus });
    onClose(() => identity.close());
    return { mongo, redis, smtp, db, identityBus, queue, worker, identity };
  });
}
