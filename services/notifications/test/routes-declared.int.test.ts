import { RedisStreamsEventBus, createQueue, declaredApiRoutes, registeredApiRoutes } from '@lsp/service-kit';
import { leaseRedisDb, startTestMongo } from '@lsp/testing';
import { buildAppWithOpsConsole } from './ops-helpers';

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
      const { ops, app } = await buildAppWithOpsConsole({
        mongoUrl: mongo.url,
        db,
        redisUrl: redis.url,
        bus,
        console: { queues: { email: emailQueue }, instance: 'routes-test' },
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
