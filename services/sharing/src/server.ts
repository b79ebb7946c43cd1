import { ProcessedEvents, openEventing, serveService } from '@lsp/service-kit';
import { buildApp } from './app';
import { sharingConfigSchema } from './config';
import { ensureSharingIndexes, sharingCollections } from './data/collections';
import { subscribeSharing } from './events/consumed';

serveService({
  name: 'sharing',
  configSchema: sharingConfigSchema,
  dbName: 'sharing',
  build: async (runtime) => {
    const { outbox, bus } = await openEventing(runtime);
    const collections = sharingCollections(runtime.mongo);
    await ensureSharingIndexes(collections);
    subscribeSharing(bus, await ProcessedEvents.open(runtime.mongo), collections, outbox);
    const app = buildApp({ ...runtime, collections, outbox });
    await bus.start();
    return app;
  },
});
