// Readers read the events of the last release (itParsesReleasedEvents); the sharing events also go
// through the step that turns them into emails.
import { SHARING_EVENT_TYPES, createEnvelope } from '@lsp/contracts';
import { itParsesReleasedEvents } from '@lsp/testing/src/contract-suites';
import { releasedExamplesConsumedBy } from '@lsp/testing/src/released-events';
import { sharingEmailJobFor } from '../src/events/consumed';

describe('notifications reads the events of the last release', () => {
  itParsesReleasedEvents('notifications');

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
