import { randomBytes } from 'node:crypto';
import { Outbox, OutboxRelay, RedisStreamsEventBus } from '@lsp/service-kit';
import {
  type TestMongo,
  type TestRedis,
  leaseRedisDb,
  silentLogger,
  startTestMongo,
  waitFor,
} from '@lsp/testing';
import type { Connection } from 'mongoose';
import { PanelStore } from '../src/data/panel-store';
import { subscribeToPanelSwitches } from '../src/events/consumed';
import { loadDefaultPanel } from '../src/panel';

jest.setTimeout(60_000);

/**
 * Two search instances on one database and one bus: an activation made through one reaches the
 * other through panel.activated, without its periodic check (which is not started here).
 */
describe('every search instance switches panel on panel.activated', () => {
  let mongo: TestMongo;
  let redis: TestRedis;
  let db: Connection;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    mongo = await startTestMongo();
    redis = await leaseRedisDb();
    db = await mongo.database('search_switch');
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await redis?.release();
    await mongo?.stop();
  });

  it('switches the other instances at once, and all of them back again', async () => {
    const base = loadDefaultPanel();
    const prefix = `panel-switch-${randomBytes(4).toString('hex')}:`;
    const outbox = await Outbox.open(db);
    const publisher = new RedisStreamsEventBus({ redisUrl: redis.url, prefix });
    const relay = new OutboxRelay({ outbox, bus: publisher, pollIntervalMs: 50 });
    relay.start();
    closers.push(
      () => publisher.close(),
      () => relay.stop(),
    );

    const instances = await Promise.all(
      [0, 1, 2].map(async () => {
        const panels = new PanelStore(db, silentLogger(), outbox);
        await panels.load(() => base);
        const bus = new RedisStreamsEventBus({ redisUrl: redis.url, prefix, blockMs: 100 });
        subscribeToPanelSwitches(bus, panels);
        await bus.start();
        closers.push(() => bus.close());
        return panels;
      }),
    );
    const [writer, ...others] = instances;
    await writer.storeDraft(
      { ...base, version: '2027-switch', lenders: base.lenders.slice(1) },
      {
        operator: 'oncall@example.com',
        source: 'test',
      },
    );
    await writer.activateVersion('2027-switch', 'oncall@example.com');
    expect(writer.currentVersion()).toBe('2027-switch');
    for (const other of others)
      await waitFor(() => other.currentVersion() === '2027-switch' || null, 'the other instance to switch');
    expect(others.map((o) => o.current().lenders.length)).toEqual([
      base.lenders.length - 1,
      base.lenders.length - 1,
    ]);

    // Back, through another instance: every instance follows again.
    await others[0].activateVersion(base.version, 'oncall@example.com');
    for (const instance of instances)
      await waitFor(
        () => instance.currentVersion() === base.version || null,
        'every instance to switch back',
      );
  });
});
