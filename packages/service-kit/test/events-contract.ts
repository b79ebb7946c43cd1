import { type EventEnvelope, createEnvelope, deadLetterTopic } from '@lsp/contracts';
import type { DeliveryContext, EventBus, EventBusMetrics, EventHandler, RetryPolicy } from '../src/events';
import { closedAfterEach, deferred, uniqueId, waitFor } from './events-helpers';

export interface ContractBusOptions {
  retry: Partial<RetryPolicy>;
  metrics?: EventBusMetrics;
}

/**
 * The behaviour every EventBus adapter must show, whatever the broker. `makeBus` builds a fresh bus
 * (sharing the broker and namespace of the run) each time it is called.
 */
export function eventBusContract(makeBus: (options: ContractBusOptions) => EventBus) {
  const retry: Partial<RetryPolicy> = { maxAttempts: 3, initialDelayMs: 50, maxDelayMs: 200 };
  const buses = closedAfterEach((made: EventBus) => made.close());

  const bus = (options: Partial<ContractBusOptions> = {}) => buses.keep(makeBus({ retry, ...options }));
  /** A bus of its own whose `handler` consumes `type` in `consumerGroup`, started. */
  const startedConsumer = async (
    consumerGroup: string,
    type: string,
    handler: EventHandler,
    options: Partial<ContractBusOptions> = {},
  ) => {
    const consumer = bus(options);
    consumer.subscribe({ consumerGroup, types: [type], handler });
    await consumer.start();
    return consumer;
  };
  // Topic names unique per test, so runs never see each other's events.
  const topic = (name: string) => `test.${uniqueId()}.${name}`;
  // Groups too: a Kafka group that outlives its test would make the next test wait for a rebalance.
  const group = (service: string) => `${service}-${uniqueId()}`;
  const event = (type: string, subject: string, data: unknown, correlationId?: string) =>
    createEnvelope('contract-test', { type, subject, data, correlationId });

  it('delivers a published envelope with its metadata and data intact', async () => {
    const sharingGroup = group('sharing');
    const type = topic('dip.created');
    const received: Array<[EventEnvelope, DeliveryContext]> = [];
    await startedConsumer(
      sharingGroup,
      type,
      async (envelope, context) => void received.push([envelope, context]),
    );
    const sent = event(type, 'dip-42', { dipId: 'dip-42', amount: 250_000, tags: ['a', 'b'] }, 'req-7');
    await bus().publish(sent);

    await waitFor(() => received.length === 1, 'the event');
    const [envelope, context] = received[0];
    expect(envelope).toEqual(sent);
    expect(context).toEqual({ attempt: 1, deadLetter: undefined });
  });

  it('gives each event to a consumer of every group', async () => {
    const type = topic('search.completed');
    const byGroup: Record<string, string[]> = { sharing: [], notifications: [] };
    const groupNames: Record<string, string> = {
      sharing: group('sharing'),
      notifications: group('notifications'),
    };
    for (const service of ['sharing', 'sharing', 'notifications']) {
      await startedConsumer(
        groupNames[service],
        type,
        async (envelope) => void byGroup[service].push(envelope.id),
      );
    }
    const publisher = bus();
    const sent = Array.from({ length: 6 }, (_, i) => event(type, `search-${i}`, { i }));
    for (const e of sent) await publisher.publish(e);

    // Delivery is at least once: a group's second member joining can move a partition before the
    // first committed, and the event comes again (handlers are idempotent). So every event, in each group.
    const distinct = (ids: string[]) => [...new Set(ids)].sort();
    await waitFor(
      () => distinct(byGroup.sharing).length >= 6 && distinct(byGroup.notifications).length >= 6,
      'both groups',
    );
    const ids = sent.map((e) => e.id).sort();
    expect(distinct(byGroup.sharing)).toEqual(ids);
    expect(distinct(byGroup.notifications)).toEqual(ids);
  });

  it('gives an every-instance subscription each event to every instance, from shortly before it subscribed', async () => {
    const type = topic('panel.activated');
    const serviceGroup = group('search');
    const publisher = bus();
    const inboxes: string[][] = [[], []];
    const instances = inboxes.map((inbox) => {
      const instance = bus();
      instance.subscribe({
        consumerGroup: serviceGroup,
        types: [type],
        everyInstance: true,
        handler: async (envelope) => void inbox.push(envelope.subject),
      });
      return instance;
    });
    for (const instance of instances) await instance.start();
    // Made long before the instances subscribed (they loaded that state at start): not handed to them,
    // whenever it arrives (an outbox may publish it late).
    await publisher.publish({
      ...event(type, 'v1', { n: 1 }),
      time: new Date(Date.now() - 10 * 60_000).toISOString(),
    });
    await publisher.publish(event(type, 'v2', { n: 2 }));
    await waitFor(() => inboxes.every((inbox) => inbox.length >= 1), 'the event in both instances');
    // A later event reaches both again (neither instance took it from the other).
    await publisher.publish(event(type, 'v3', { n: 3 }));
    await waitFor(() => inboxes.every((inbox) => inbox.length >= 2), 'the next event in both instances');
    expect(inboxes).toEqual([
      ['v2', 'v3'],
      ['v2', 'v3'],
    ]);
  });

  it("keeps one subject's events in publication order", async () => {
    const sharingGroup = group('sharing');
    const type = topic('dip.expiry.changed');
    const seen: number[] = [];
    await startedConsumer(
      sharingGroup,
      type,
      async (envelope) => void seen.push((envelope.data as { n: number }).n),
    );
    const publisher = bus();
    for (let n = 0; n < 20; n++) await publisher.publish(event(type, 'dip-1', { n }));

    await waitFor(() => seen.length === 20, 'twenty events');
    expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });

  it('retries a failing handler with a growing attempt number until it succeeds, then not again', async () => {
    const notificationsGroup = group('notifications');
    const type = topic('share.created');
    const attempts: number[] = [];
    await startedConsumer(notificationsGroup, type, async (_envelope, { attempt }) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Error('mail server unavailable');
    });
    const publisher = bus();
    await publisher.publish(event(type, 'share-1', {}));
    await waitFor(() => attempts.length === 3, 'three attempts');
    // A second event handled after the first proves the first was settled rather than left pending.
    await publisher.publish(event(type, 'share-1', {}));
    await waitFor(() => attempts.length === 4, 'the next event');
    expect(attempts).toEqual([1, 2, 3, 1]);
  });

  it('moves an event whose handler always fails to <type>.dlq after maxAttempts, with the error', async () => {
    const notificationsGroup = group('notifications');
    const operationsGroup = group('operations');
    const type = topic('deal.shared');
    const attempts: number[] = [];
    const dead: Array<[EventEnvelope, DeliveryContext]> = [];
    const consumer = bus();
    consumer.subscribe({
      consumerGroup: notificationsGroup,
      types: [type],
      handler: async (_envelope, { attempt }) => {
        attempts.push(attempt);
        throw new Error('template missing');
      },
    });
    consumer.subscribe({
      consumerGroup: operationsGroup,
      types: [deadLetterTopic(type)],
      handler: async (envelope, context) => void dead.push([envelope, context]),
    });
    await consumer.start();
    const sent = event(type, 'deal-9', { to: 'a@example.com' });
    await bus().publish(sent);

    await waitFor(() => dead.length === 1, 'the dead letter');
    expect(attempts).toEqual([1, 2, 3]);
    const [envelope, context] = dead[0];
    expect(envelope).toEqual(sent);
    expect(context.deadLetter).toMatchObject({
      consumerGroup: notificationsGroup,
      attempts: 3,
      error: 'Error: template missing',
    });
    expect(Date.parse(context.deadLetter!.failedAt)).not.toBeNaN();
  });

  it('waits for an in-flight handler to finish before close resolves', async () => {
    const dipGroup = group('dip');
    const type = topic('dip.pdf.rendered');
    const started = deferred();
    const release = deferred();
    let finished = false;
    const consumer = await startedConsumer(dipGroup, type, async () => {
      started.resolve();
      await release.promise;
      finished = true;
    });
    await bus().publish(event(type, 'dip-3', {}));
    await started.promise;

    let closed = false;
    const closing = consumer.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);
    release.resolve();
    await closing;
    expect(finished).toBe(true);
  });

  it('reports published, consumed, failed and dead-lettered events to the metrics hook', async () => {
    const sharingGroup = group('sharing');
    const type = topic('referral.created');
    const counts: Record<string, string[]> = { published: [], consumed: [], failed: [], deadLettered: [] };
    const metrics: EventBusMetrics = {
      onPublished: (t) => void counts.published.push(t),
      onConsumed: (t) => void counts.consumed.push(t),
      onFailed: (t) => void counts.failed.push(t),
      onDeadLettered: (t) => void counts.deadLettered.push(t),
    };
    await startedConsumer(
      sharingGroup,
      type,
      async (envelope) => {
        if ((envelope.data as { ok: boolean }).ok === false) throw new Error('rejected');
      },
      { metrics },
    );
    const publisher = bus({ metrics });
    await publisher.publish(event(type, 'ref-1', { ok: true }));
    await publisher.publish(event(type, 'ref-2', { ok: false }));

    await waitFor(() => counts.consumed.length === 1 && counts.deadLettered.length === 1, 'both outcomes');
    expect(counts).toEqual({
      published: [type, type],
      consumed: [type],
      failed: [type, type, type],
      deadLettered: [type],
    });
  });

  it('rejects an envelope that breaks the schema without publishing it', async () => {
    const invalid = { ...event(topic('lead.captured'), 'lead-1', {}), source: 'not-a-service' };
    await expect(bus().publish(invalid)).rejects.toThrow(/source/);
  });
}
