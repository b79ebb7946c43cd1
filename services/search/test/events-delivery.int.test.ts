import type { EventEnvelope } from '@lsp/contracts';
import { OutboxRelay } from '@lsp/service-kit';
import { useHarness, waitFor } from '@lsp/testing';
import {
  COMMERCIAL_PAYLOAD,
  DEVELOPMENT_PAYLOAD,
  LEAD,
  eventBuses,
  startSearchHarness,
} from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

/**
 * The outbox is the service's side of delivery; this checks the whole path once: a search and a save
 * through the gateway reach a consumer on the Redis Streams bus, with the contract's data.
 */
describe('search events reach the bus', () => {
  const h = useHarness(startSearchHarness);
  const received: EventEnvelope[] = [];

  beforeAll(async () => {
    const { publisher, consumer } = eventBuses(h, 'test-search-events');
    consumer.subscribe({
      consumerGroup: 'search-events-test',
      types: ['search.completed', 'search.saved', 'lead.captured'],
      handler: async (envelope) => {
        received.push(envelope);
      },
    });
    await consumer.start();
    const relay = new OutboxRelay({ outbox: h.outbox, bus: publisher, pollIntervalMs: 100 });
    relay.start();
    h.onClose(() => relay.stop());
  });

  it('delivers search.completed, lead.captured and search.saved with the ids of what was stored', async () => {
    const { client, user } = await h.signedIn();
    const run = await client.post('/api/development', {
      ...DEVELOPMENT_PAYLOAD,
      userId: user.userId,
      lead: LEAD,
    });
    expect(run.status).toBe(200);
    const runId = run.json().data.SearchRunId;
    const saved = await client.post('/api/search', {
      userId: user.userId,
      loanType: 'development',
      searchData: DEVELOPMENT_PAYLOAD,
      apiResponse: run.json(),
    });
    const searchId = saved.json().search.id;
    const anonymous = await h.client().post('/api/commercial', COMMERCIAL_PAYLOAD);

    const completed = await waitFor(
      () => received.find((e) => e.type === 'search.completed' && e.subject === runId),
      'search.completed',
    );
    expect(completed.source).toBe('/services/search');
    expect(completed.data).toMatchObject({
      searchRunId: runId,
      loanType: 'development',
      userId: user.userId,
    });
    const lead = await waitFor(() => received.find((e) => e.type === 'lead.captured'), 'lead.captured');
    expect(lead.data).toMatchObject({ email: LEAD.email, searchType: 'development' });
    const savedEvent = await waitFor(
      () => received.find((e) => e.type === 'search.saved' && e.subject === searchId),
      'search.saved',
    );
    expect(savedEvent.data).toMatchObject({ searchId, userId: user.userId, loanType: 'development' });
    const anonymousRun = anonymous.json().data.SearchRunId;
    const anonymousEvent = await waitFor(
      () => received.find((e) => e.subject === anonymousRun),
      'the anonymous search.completed',
    );
    expect((anonymousEvent.data as { userId?: string }).userId).toBeUndefined();
    await waitFor(async () => (await h.outbox.countPending()) === 0, 'the outbox to be drained');
  });
});
