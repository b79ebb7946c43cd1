import { declaredApiRoutes, registeredApiRoutes } from '@lsp/service-kit';
import { startSearchHarness } from './search-harness';

// Every route the search service registers is declared in @lsp/contracts (registering one that is not
// throws), and every route declared for it is registered: a declaration without a route fails here.
describe('the search routes and their contracts', () => {
  it('registers exactly the routes @lsp/contracts declares for search', async () => {
    const started = await startSearchHarness();
    try {
      expect(registeredApiRoutes('search')).toEqual(declaredApiRoutes('search'));
    } finally {
      await started.close();
    }
  });
});
