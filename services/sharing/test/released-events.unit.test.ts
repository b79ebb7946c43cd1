import { itParsesReleasedEvents } from '@lsp/testing/src/contract-suites';

describe('sharing reads the events of the last release', () => {
  itParsesReleasedEvents('sharing');
});
