import { ProcessedEvents, openEventing, defineService } from '@lsp/service-kit';
import { buildApp } from './app';
import { sharingConfigSchema } from './config';
import { ensureSharingIndexes, sharingCollections } from './data/collections';
import { sharingRepositories } from './data/repositories';
import { subscribeSharing } from './events/consumed';

export const sharingService = defineService({
  name: 'sharing',
  configSchema: sharingConfigSchema,
  dbName: 'sharing',
  build: async (runtime) => {
    const { outbox, bus } = await openEventing(runtime);
    const collections = sharingCollections(runtime.mongo);
    await ensureSharingIndexes(collections);
    const repositories = sharingRepositories(runtime.mongo);
    subscribeSharing(bus, await ProcessedEvents.open(runtime.mongo), repositories, outbox);
    const app = buildApp({ ...runtime, repositories, outbox });
    await bus.start();
    return app;
  },
});
