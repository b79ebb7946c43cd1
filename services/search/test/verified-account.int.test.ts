import {
  type EventEnvelope,
  IDENTITY_EVENT_TYPES,
  type UserVerifiedEvent,
  createEnvelope,
} from '@lsp/contracts';
import { ProcessedEvents, type RedisStreamsEventBus } from '@lsp/service-kit';
import { silentLogger, useHarness, waitFor } from '@lsp/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { subscribeToVerifiedAccounts } from '../src/events/consumed';
import { SavedSearchRepository } from '../src/data/saved-searches';
import { SearchRunRepository } from '../src/data/search-runs';
import { savedSearchModel } from '../src/data/models/saved-searches';
import { BRIDGING_PAYLOAD, envelopeOf, eventBuses, startSearchHarness } from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

/**
 * The search service's consumer of identity.user.verified, fed through the Redis Streams bus: the
 * anonymous run an account was created with is saved to it, so any device the person signs in on
 * lists it.
 */
describe('search saves the run an account was created with when the account is verified', () => {
  const h = useHarness(startSearchHarness);
  let publisher: RedisStreamsEventBus;

  beforeAll(async () => {
    const buses = eventBuses(h, 'test-search-accounts');
    publisher = buses.publisher;
    subscribeToVerifiedAccounts(buses.consumer, await ProcessedEvents.open(h.mongo), {
      runs: new SearchRunRepository(h.mongo, h.outbox),
      panels: h.panels,
      savedSearches: new SavedSearchRepository(h.mongo, h.outbox),
      logger: silentLogger(),
    });
    await buses.consumer.start();
  });

  const verified = (userId: string, searchRunId?: string): EventEnvelope<UserVerifiedEvent> =>
    createEnvelope('identity', {
      type: IDENTITY_EVENT_TYPES.verified,
      subject: userId,
      data: {
        userId,
        email: `${userId}@example.co.uk`,
        verifiedAt: new Date().toISOString(),
        ...(searchRunId ? { searchRunId } : {}),
      },
    });

  const savedOf = (userId: string) => savedSearchModel(h.mongo).find({ user_id: userId }).lean();

  /** An anonymous visitor's search: its answer, as the browser holds it. */
  const anonymousRun = async () => {
    const run = await h.client().post('/api/bridging', BRIDGING_PAYLOAD);
    expect(run.status).toBe(200);
    return run.json();
  };

  it('lists the run for the new account on a fresh client, once, however often the event comes', async () => {
    const run = await anonymousRun();
    const userId = `user-${randomBytes(6).toString('hex')}`;
    const event = verified(userId, run.data.SearchRunId);
    await publisher.publish(event);
    await waitFor(async () => (await savedOf(userId)).length === 1, 'the run to be saved to the account');

    // Signed in on another device: a new client with nothing in its storage.
    const phone = await h.signedIn({ userId });
    const listed = (await phone.client.get(`/api/user-searches/${userId}`)).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ loan_type: 'bridging', project_name: BRIDGING_PAYLOAD.projectName });
    expect(listed[0].api_response.data.Results).toEqual(run.data.Results);
    const saved = (await h.outboxEntries('search.saved')).map(envelopeOf);
    expect(saved.find((e) => e.subject === listed[0].id)?.data.offers).toEqual(run.data.Results);

    // The browser that ran it saves it too after verification: still one search.
    const again = await phone.client.post('/api/search', {
      userId,
      loanType: 'bridging',
      searchData: BRIDGING_PAYLOAD,
      apiResponse: run,
    });
    expect(again.json().search.id).toBe(listed[0].id);

    // A redelivery, then a later event: the consumer has gone past the first without saving it twice.
    await publisher.publish(event);
    const later = `user-${randomBytes(6).toString('hex')}`;
    await publisher.publish(verified(later, (await anonymousRun()).data.SearchRunId));
    await waitFor(async () => (await savedOf(later)).length === 1, 'the later run to be saved');
    expect(await savedOf(userId)).toHaveLength(1);
  });

  it("saves nothing for another user's run, an unknown run or an account created without one", async () => {
    const owner = await h.signedIn();
    const ownersRun = (
      await owner.client.post('/api/bridging', { ...BRIDGING_PAYLOAD, userId: owner.user.userId })
    ).json();
    const intruder = `user-${randomBytes(6).toString('hex')}`;
    const unknown = `user-${randomBytes(6).toString('hex')}`;
    const without = `user-${randomBytes(6).toString('hex')}`;
    await publisher.publish(verified(intruder, ownersRun.data.SearchRunId));
    await publisher.publish(verified(unknown, randomUUID()));
    await publisher.publish(verified(without));
    // Events are handled in order: once a later one is saved, the three before it were handled.
    const marker = `user-${randomBytes(6).toString('hex')}`;
    await publisher.publish(verified(marker, (await anonymousRun()).data.SearchRunId));
    await waitFor(async () => (await savedOf(marker)).length === 1, 'the marker run to be saved');
    for (const userId of [intruder, unknown, without]) expect(await savedOf(userId)).toHaveLength(0);
    expect(await savedOf(owner.user.userId)).toHaveLength(0);
  });
});
