// Readers read the events of the last release: every event type this service consumes (read from its
// src/events/, as its README's events block is), in every released version and in both example shapes
// (every optional field, and only the required ones), is read by today's payload schema of that version.
import { EVENT_SCHEMAS, type EventType } from '@lsp/contracts';
import { releasedExamplesConsumedBy, releasedExamplesRefusedBy } from '@lsp/testing/src/released-events';

const schemaOf = (type: string, version: number) => EVENT_SCHEMAS[type as EventType]?.[version];

describe('search reads the events of the last release', () => {
  it('parses the released example of every event type and version it consumes', async () => {
    const examples = await releasedExamplesConsumedBy('search');
    expect(examples.length).toBeGreaterThan(0);
    expect(await releasedExamplesRefusedBy('search', schemaOf)).toEqual([]);
  });
});
