import { ProcessedEvents, openEventing, serveService } from '@lsp/service-kit';
import { buildApp, createRepositories, ensureIndexes } from './app';
import { searchConfigSchema } from './config';
import { subscribeToApplications } from './events/consumed';
import { loadDefaultPanel, loadPanelFile } from './panel';
import { PanelStore } from './data/panel-store';

serveService({
  name: 'search',
  configSchema: searchConfigSchema,
  dbName: 'search',
  build: async (runtime) => {
    const { config, logger, mongo } = runtime;
    const { outbox, bus } = await openEventing(runtime);
    const panels = new PanelStore(mongo, logger, outbox);
    await panels.load(() =>
      config.PANEL_SEED_FILE ? loadPanelFile(config.PANEL_SEED_FILE) : loadDefaultPanel(),
    );
    panels.startRefreshing(config.PANEL_REFRESH_MS);
    runtime.addCloser({ name: 'panel-refresh', close: async () => panels.stopRefreshing() });
    const repositories = createRepositories(mongo, outbox);
    await ensureIndexes(repositories);
    subscribeToApplications(bus, await ProcessedEvents.open(mongo), repositories.savedSearches);
    const app = buildApp({ ...runtime, panels, ...repositories });
    await bus.start();
    return app;
  },
});
