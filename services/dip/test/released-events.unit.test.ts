import { itParsesReleasedEvents } from '@lsp/testing/src/contract-suites';

describe('dip reads the events of the last release', () => {
  itParsesReleasedEvents('dip');
});
