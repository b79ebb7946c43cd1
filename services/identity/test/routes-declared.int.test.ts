import { declaredApiRoutes, registeredApiRoutes } from '@lsp/service-kit';
import { startIdentityStack } from './harness';

// Every route the identity service registers is declared in @lsp/contracts (registering one that is not
// throws), and every route declared for it is registered: a declaration without a route fails here.
describe('the identity routes and their contracts', () => {
  it('registers exactly the routes @lsp/contracts declares for identity', async () => {
    const started = await startIdentityStack();
    try {
      expect(registeredApiRoutes('identity')).toEqual(declaredApiRoutes('identity'));
    } finally {
      await started.close();
    }
  });
});
