import { openServiceRuntime, runUntilSignalled } from '@lsp/service-kit';
import { Outbox, OutboxRelay, createEventBus, eventBusConfigFromEnv, eventBusHealthCheck } from '@lsp/service-kit/src/events';
import { buildApp, createRepositories, ensureIndexes } from './app';
import { searchConfigSchema } from './config';
import { PanelStore } from './panel-store';
import { loadDefaultPanel, loadPanelFile } from './panel';

async function main() {
  const runtime = await openServiceRuntime({ name: 'search', configSchema: searchConfigSchema, dbName: 'search' });
  const { config, logger, mongo } = runtime;

  const bus = createEventBus(eventBusConfigFromEnv(config, { logger }));
  const outbox = await Outbox.open(mongo);
  const relay = new OutboxRelay({ outbox, bus, logger });

  const panels = new PanelStore(mongo, logger);
  await panels.load(() => (config.PANEL_SEED_FILE ? loadPanelFile(config.PANEL_SEED_FILE) : loadDefaultPanel()));
  panels.startRefreshing(config.PANEL_REFRESH_MS);

  const repositories = createRepositories(mongo, outbox);
  await ensureIndexes(repositories);
  const app = buildApp({ ...runtime, healthChecks: [...runtime.healthChecks, eventBusHealthCheck(bus)], panels, ...repositories });
  relay.start();
  await runUntilSignalled(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    // The relay stops before the bus and the database it reads from close.
    closers: [
      { name: 'panel-refresh', close: async () => panels.stopRefreshing() },
      { name: 'outbox-relay', close: () => relay.stop() },
      { name: 'event-bus', close: () => bus.close() },
      ...runtime.closers,
    ],
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
