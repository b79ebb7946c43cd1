import { ProcessedEvents, openEventing, defineService, systemClock } from '@lsp/service-kit';
import { buildApp, createRepositories, ensureIndexes } from './app';
import { dipConfigSchema } from './config';
import { subscribeToProjections } from './events/consumed';
import { openDipPdfs } from './pdf';

/** The dip API process: DIPs, their links and PDFs, applications; the projections it keeps from events. */
export const dipService = defineService({
  name: 'dip',
  configSchema: dipConfigSchema,
  dbName: 'dip',
  build: async (runtime) => {
    const { bus, outbox } = await openEventing(runtime);
    const repositories = createRepositories(runtime.mongo, outbox);
    await ensureIndexes(repositories);
    const pdfs = await openDipPdfs(runtime);
    subscribeToProjections(bus, {
      processed: await ProcessedEvents.open(runtime.mongo),
      savedSearches: repositories.savedSearches,
      access: repositories.access,
      dips: repositories.dips,
      clock: systemClock,
    });
    const app = buildApp({ ...runtime, ...repositories, clock: systemClock, pdfs });
    await bus.start();
    return app;
  },
});
