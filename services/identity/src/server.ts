import { openServiceRuntime, runUntilSignalled } from '@lsp/service-kit';
import {
  Outbox,
  OutboxRelay,
  createEventBus,
  eventBusConfigFromEnv,
  eventBusHealthCheck,
} from '@lsp/service-kit/src/events';
import { buildApp } from './app';
import { identityConfigSchema } from './config';

async function main() {
  const runtime = await openServiceRuntime({ name: 'identity', configSchema: identityConfigSchema, dbName: 'identity' });
  const { config, logger, metrics } = runtime;
  const bus = createEventBus(eventBusConfigFromEnv(config, { metrics: metrics.eventHooks, logger }));
  const outbox = await Outbox.open(runtime.mongo);
  const relay = new OutboxRelay({ outbox, bus, logger });
  metrics.addQueueDepthSource(async () => [{ queue: 'outbox', state: 'pending', count: await outbox.countPending() }]);
  const app = buildApp({ ...runtime, healthChecks: [...runtime.healthChecks, eventBusHealthCheck(bus)], outbox });
  relay.start();
  const address = await runUntilSignalled(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    // The relay stops before the bus closes, so the publish in flight completes.
    closers: [{ name: 'outbox-relay', close: () => relay.stop() }, { name: 'event-bus', close: () => bus.close() }, ...runtime.closers],
  });
  logger.info({ address }, 'identity listening');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
