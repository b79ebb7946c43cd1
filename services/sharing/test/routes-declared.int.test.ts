import { declaredApiRoutes, registeredApiRoutes } from '@lsp/service-kit';
import { startSharingHarness } from './sharing-harness';

// Every route the sharing service registers is declared in @lsp/contracts (registering one that is not
// throws), and every route declared for it is registered: a declaration without a route fails here.
describe('the sharing routes and their contracts', () => {
  it('registers exactly the routes @lsp/contracts declares for sharing', async () => {
    const started = await startSharingHarness();
    try {
      expect(registeredApiRoutes('sharing')).toEqual(declaredApiRoutes('sharing'));
    } finally {
      await started.close();
    }
  });
});
