import { openEventing, defineService } from '@lsp/service-kit';
import { buildApp } from './app';
import { identityConfigSchema } from './config';

export const identityService = defineService({
  name: 'identity',
  configSchema: identityConfigSchema,
  dbName: 'identity',
  build: async (runtime) => {
    const { outbox } = await openEventing(runtime);
    return buildApp({ ...runtime, outbox });
  },
});
