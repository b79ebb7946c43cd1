import { ProcessedEvents, createQueue, openEventing, defineService, watchQueueDepth } from '@lsp/service-kit';
import { buildApp, createRepositories, ensureIndexes } from './app';
import { searchConfigSchema } from './config';
import {
  subscribeToApplications,
  subscribeToPanelActivations,
  subscribeToPanelSwitches,
  subscribeToVerifiedAccounts,
} from './events/consumed';
import { REPRICING_QUEUE, type RepricingJob } from './use-cases/repricing-job';
import { loadDefaultPanel, loadPanelFile } from './panel';
import { PanelStore } from './data/panel-store';

export const searchService = defineService({
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
    subscribeToVerifiedAccounts(bus, await ProcessedEvents.open(mongo), { ...repositories, panels, logger });
    const repricingQueue = createQueue<RepricingJob>(REPRICING_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
    runtime.addCloser({ name: 'repricing-queue', close: () => repricingQueue.close() });
    watchQueueDepth(runtime.metrics, repricingQueue);
    subscribeToPanelActivations(bus, repricingQueue);
    subscribeToPanelSwitches(bus, panels);
    const app = buildApp({ ...runtime, panels, ...repositories });
    await bus.start();
    return app;
  },
});
