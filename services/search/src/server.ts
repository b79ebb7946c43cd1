import { openEventing, openServiceRuntime, runUntilSignalled } from '@lsp/service-kit';
import { buildApp, createRepositories, ensureIndexes } from './app';
import { searchConfigSchema } from './config';
import { loadDefaultPanel, loadPanelFile } from './panel';
import { PanelStore } from './panel-store';

async function main() {
  const runtime = await openServiceRuntime({
    name: 'search',
    configSchema: searchConfigSchema,
    dbName: 'search',
  });
  const { config, logger, mongo } = runtime;
  // Adds the bus health check and closes relay then bus before the connections.
  const { outbox } = await openEventing(runtime);

  const panels = new PanelStore(mongo, logger);
  await panels.load(() =>
    config.PANEL_SEED_FILE ? loadPanelFile(config.PANEL_SEED_FILE) : loadDefaultPanel(),
  );
  panels.startRefreshing(config.PANEL_REFRESH_MS);
  runtime.closers.unshift({ name: 'panel-refresh', close: async () => panels.stopRefreshing() });

  const repositories = createRepositories(mongo, outbox);
  await ensureIndexes(repositories);
  const app = buildApp({ ...runtime, panels, ...repositories });
  await runUntilSignalled(app, { host: config.HOST, port: config.PORT, logger, closers: runtime.closers });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
