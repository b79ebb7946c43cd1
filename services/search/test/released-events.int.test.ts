// search's consumer of application.submitted reads the event of the last release through the real bus
// (Redis Streams): the released example payload (packages/contracts/released/dip.json), addressed to a
// search the owner saved, marks it Application Submitted; the same event as v2 is passed by.
import { DIP_EVENT_TYPES, createEnvelope, dataschemaOf } from '@lsp/contracts';
import type { RedisStreamsEventBus } from '@lsp/service-kit';
import { useHarness, waitFor } from '@lsp/testing';
import { releasedExamplesConsumedBy } from '@lsp/testing/src/released-events';
import { consumeApplications, runAndSaveSearch, startSearchHarness } from './search-harness';

jest.setTimeout(60_000);

describe('search reads the application.submitted of the last release', () => {
  const h = useHarness(startSearchHarness);
  let publisher: RedisStreamsEventBus;

  beforeAll(async () => {
    publisher = await consumeApplications(h, 'test-search-released');
  });

  const statusOf = async (searchId: string) =>
    (await h.mongo.collection('finance_searches').findOne({ _id: searchId as never }))?.application_status;

  it.each(['full', 'minimal'] as const)(
    'marks the saved search from the released %s example',
    async (shape) => {
      const example = (await releasedExamplesConsumedBy('search')).find(
        (e) => e.type === DIP_EVENT_TYPES.applicationSubmitted && e.shape === shape,
      );
      expect(example).toBeDefined();
      const owner = await h.signedIn();
      const searchId = (await runAndSaveSearch(owner.client, owner.user.userId)).id;
      const data: Record<string, unknown> = {
        ...(example!.payload as Record<string, unknown>),
        userId: owner.user.userId,
        searchId,
      };
      const event = (version: number) =>
        createEnvelope('dip', {
          type: DIP_EVENT_TYPES.applicationSubmitted,
          subject: String(data.applicationId),
          data,
          dataschema: dataschemaOf(DIP_EVENT_TYPES.applicationSubmitted, version),
        });
      await publisher.publish(event(2));
      // A later event on the same stream that the consumer applies: the v2 one before it was passed by.
      const other = await h.signedIn();
      const probe = (await runAndSaveSearch(other.client, other.user.userId)).id;
      await publisher.publish(
        createEnvelope('dip', {
          type: DIP_EVENT_TYPES.applicationSubmitted,
          subject: 'probe',
          data: { ...data, userId: other.user.userId, searchId: probe },
        }),
      );
      await waitFor(async () => (await statusOf(probe)) === 'submitted', 'the probe search to be submitted');
      expect(await statusOf(searchId)).toBe('not_submitted');

      await publisher.publish(event(1));
      await waitFor(async () => (await statusOf(searchId)) === 'submitted', `the ${shape} example applied`);
    },
  );
});
