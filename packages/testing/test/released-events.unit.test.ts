import { EVENT_SCHEMAS, type EventType, dipCreatedEventSchema } from '@lsp/contracts';
import { z } from 'zod';
import { releasedExamplesConsumedBy, releasedExamplesRefusedBy } from '../src/released-events';

const today = (type: string, version: number) => EVENT_SCHEMAS[type as EventType]?.[version];

describe('the released event examples a service reads', () => {
  it('lists every type the service consumes, each version in both shapes', async () => {
    const examples = await releasedExamplesConsumedBy('sharing');
    const types = [...new Set(examples.map((e) => e.type))].sort();
    expect(types).toEqual(
      expect.arrayContaining(['dip.created', 'dip.expiry.changed', 'dip.link.regenerated', 'dip.revoked']),
    );
    expect(examples.filter((e) => e.type === 'dip.created').map((e) => e.shape)).toEqual(['full', 'minimal']);
  });

  it('names the event, shape and field a schema with a new required field refuses', async () => {
    const withNewField = dipCreatedEventSchema.extend({ brokerReference: z.string() });
    const refused = await releasedExamplesRefusedBy('sharing', (type, version) =>
      type === 'dip.created' ? withNewField : today(type, version),
    );
    expect(refused).toEqual([
      expect.stringMatching(/^dip\.created v1 \(full, release \d+\): brokerReference: /),
      expect.stringMatching(/^dip\.created v1 \(minimal, release \d+\): brokerReference: /),
    ]);
  });

  it('refuses an example whose version has no schema today', async () => {
    const refused = await releasedExamplesRefusedBy('sharing', (type, version) =>
      type === 'dip.revoked' ? undefined : today(type, version),
    );
    expect(refused).toEqual([
      expect.stringMatching(/^dip\.revoked v1 \(full, release \d+\): no schema of this version today/),
      expect.stringMatching(/^dip\.revoked v1 \(minimal/),
    ]);
  });
});
