import {
  type ApplicationSubmittedEvent,
  DIP_EVENT_TYPES,
  type EventEnvelope,
  createEnvelope,
} from '@lsp/contracts';
import type { RedisStreamsEventBus } from '@lsp/service-kit';
import { type CookieClient, useHarness, waitFor } from '@lsp/testing';
import { randomUUID } from 'node:crypto';
import { consumeApplications, runAndSaveSearch, startSearchHarness } from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

/** The search service's consumer of application.submitted, fed through the Redis Streams bus. */
describe('search marks a saved search Application Submitted from application.submitted', () => {
  const h = useHarness(startSearchHarness);
  let publisher: RedisStreamsEventBus;

  beforeAll(async () => {
    publisher = await consumeApplications(h, 'test-search-applications');
  });

  const savedSearch = async (client: CookieClient, userId: string) =>
    (await runAndSaveSearch(client, userId)).id;

  const submitted = (userId: string, searchId: string | null): EventEnvelope<ApplicationSubmittedEvent> =>
    createEnvelope('dip', {
      type: DIP_EVENT_TYPES.applicationSubmitted,
      subject: randomUUID(),
      data: {
        applicationId: randomUUID(),
        kind: 'dip-application',
        userId,
        searchId,
        loanType: 'development',
        loanAmount: 950000,
        status: 'submitted',
        submittedAt: new Date().toISOString(),
      },
    });

  const statusOf = async (searchId: string) =>
    (await h.mongo.collection('finance_searches').findOne({ _id: searchId as never }))?.application_status;

  it("sets the owner's saved search to submitted once, ignores a redelivery and another user's event", async () => {
    const owner = await h.signedIn();
    const other = await h.signedIn();
    const first = await savedSearch(owner.client, owner.user.userId);
    const second = await savedSearch(owner.client, owner.user.userId);
    const third = await savedSearch(owner.client, owner.user.userId);

    // Another user's application naming the owner's search changes nothing.
    await publisher.publish(submitted(other.user.userId, second));
    const event = submitted(owner.user.userId, first);
    await publisher.publish(event);
    await waitFor(async () => (await statusOf(first)) === 'submitted', 'the first search to be submitted');
    expect(await statusOf(second)).toBe('not_submitted');

    // A redelivered event is handled once: put the status back, deliver the same event again, and a
    // later event for the third search proves the consumer has gone past it without applying it.
    await h.mongo
      .collection('finance_searches')
      .updateOne({ _id: first as never }, { $set: { application_status: 'not_submitted' } });
    await publisher.publish(event);
    await publisher.publish(submitted(owner.user.userId, third));
    await waitFor(async () => (await statusOf(third)) === 'submitted', 'the third search to be submitted');
    expect(await statusOf(first)).toBe('not_submitted');

    const list = await owner.client.get(`/api/user-searches/${owner.user.userId}`);
    expect(list.json().find((s: { id: string }) => s.id === third).application_status).toBe('submitted');
  });
});
