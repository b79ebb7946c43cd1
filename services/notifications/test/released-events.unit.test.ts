// Readers read the events of the last release: every event type this service consumes (read from its
// src/events/, as its README's events block is), in every released version and in both example shapes
// (every optional field, and only the required ones), is read by today's payload schema of that version;
// the sharing events also go through the step that turns them into emails.
import { EVENT_SCHEMAS, type EventType, SHARING_EVENT_TYPES, createEnvelope } from '@lsp/contracts';
import { releasedExamplesConsumedBy, releasedExamplesRefusedBy } from '@lsp/testing/src/released-events';
import { sharingEmailJobFor } from '../src/events/consumed';

const schemaOf = (type: string, version: number) => EVENT_SCHEMAS[type as EventType]?.[version];

describe('notifications reads the events of the last release', () => {
  it('parses the released example of every event type and version it consumes', async () => {
    const examples = await releasedExamplesConsumedBy('notifications');
    expect(examples.length).toBeGreaterThan(0);
    expect(await releasedExamplesRefusedBy('notifications', schemaOf)).toEqual([]);
  });

  it('turns the released sharing events (every optional field given) into their emails', async () => {
    const emailed = [
      SHARING_EVENT_TYPES.shareCreated,
      SHARING_EVENT_TYPES.dealShared,
      SHARING_EVENT_TYPES.referralCreated,
    ];
    const examples = (await releasedExamplesConsumedBy('notifications')).filter(
      (e) => e.shape === 'full' && (emailed as readonly string[]).includes(e.type),
    );
    expect(examples.map((e) => e.type).sort()).toEqual([...emailed].sort());
    for (const example of examples) {
      const envelope = createEnvelope('sharing', {
        type: example.type,
        subject: 'released',
        data: example.payload,
      });
      const job = sharingEmailJobFor(envelope);
      expect([example.type, job?.eventId, typeof job?.to]).toEqual([example.type, envelope.id, 'string']);
    }
  });
});
