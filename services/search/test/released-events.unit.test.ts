import { itParsesReleasedEvents } from '@lsp/testing/src/contract-suites';

describe('search reads the events of the last release', () => {
  itParsesReleasedEvents('search');
});
