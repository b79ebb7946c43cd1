import { declaredApiRoutes, registeredApiRoutes } from '@lsp/service-kit';
import { startDipHarness } from './dip-harness';

// Every route the dip service registers is declared in @lsp/contracts (registering one that is not
// throws), and every route declared for it is registered: a declaration without a route fails here.
describe('the dip routes and their contracts', () => {
  it('registers exactly the routes @lsp/contracts declares for dip', async () => {
    const started = await startDipHarness();
    try {
      expect(registeredApiRoutes('dip')).toEqual(declaredApiRoutes('dip'));
    } finally {
      await started.close();
    }
  });
});
