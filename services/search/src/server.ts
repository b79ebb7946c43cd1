import { openEventing, serveService } from '@lsp/service-kit';
import { buildApp, createRepositories, ensureIndexes } from './app';
import { searchConfigSchema } from './config';
import { loadDefaultPanel, loadPanelFile } from './panel';
import { PanelStore } from './panel-store';

serveService({
  name: 'search',
  configSchema: searchConfigSchema,
  dbName: 'search',
  build: async (runtime) => {
    const { config, logger, mongo } = runtime;
    const panels = new PanelStore(mongo, logger);
    await panels.load(() =>
      config.PANEL_SEED_FILE ? loadPanelFile(config.PANEL_SEED_FILE) : loadDefaultPanel(),
    );
    panels.startRefreshing(config.PANEL_REFRESH_MS);
    runtime.addCloser({ name: 'panel-refresh', close: async () => panels.stopRefreshing() });
    const { outbox } = await openEventing(runtime);
    const repositories = createRepositories(mongo, outbox);
    await ensureIndexes(repositories);
    return buildApp({ ...runtime, panels, ...repositories });
  },
});
