import {
  RedisStreamsEventBus,
  ServiceMetrics,
  createQueue,
  declaredApiRoutes,
  registeredApiRoutes,
} from '@lsp/service-kit';
import { TEST_SECRETS, leaseRedisDb, silentLogger, startTestMongo } from '@lsp/testing';
import { buildApp } from '../src/app';
import { notificationsConfigSchema } from '../src/config';
import { createOpsConsole } from '../src/ops';

// Every route the notifications service registers is declared in @lsp/contracts (registering one that
// is not throws), and every route declared for it is registered: a declaration without a route fails here.
describe('the notifications routes and their contracts', () => {
  it('registers exactly the routes @lsp/contracts declares for notifications (the ops console on)', async () => {
    const mongo = await startTestMongo();
    const redis = await leaseRedisDb();
    const bus = new RedisStreamsEventBus({ redisUrl: redis.url });
    const emailQueue = createQueue('email', redis.url);
    try {
      const db = await mongo.database('notifications');
      const config = notificationsConfigSchema.parse({
        ...TEST_SECRETS,
        MONGO_URL: mongo.url,
        REDIS_URL: redis.url,
        DB_NAME: db.name,
      });
      const ops = await createOpsConsole({
        config,
        logger: silentLogger(),
        mongo: db,
        bus,
        queues: { email: emailQueue },
        instance: 'routes-test',
      });
      const app = buildApp({
        config,
        logger: silentLogger(),
        metrics: new ServiceMetrics('notifications'),
        healthChecks: [],
        mongo: db,
        ops,
      });
      await app.ready();
      expect(registeredApiRoutes('notifications')).toEqual(declaredApiRoutes('notifications'));
      await app.close();
      await ops.close();
    } finally {
      // Its close() ends the connection createQueue made for it.
      await emailQueue.close();
      await bus.close();
      await redis.release();
      await mongo.stop();
    }
  });
});
