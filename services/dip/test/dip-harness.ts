import { randomBytes } from 'node:crypto';
import {
  type CallerIdentity,
  type EventBus,
  Outbox,
  OutboxRelay,
  ProcessedEvents,
  RedisStreamsEventBus,
  ServiceMetrics,
} from '@lsp/service-kit';
import {
  CookieClient,
  DOWN_URL,
  type TestRedis,
  TestClock,
  freePort,
  listen,
  signedInClient,
  silentLogger,
  startHarness,
  waitFor,
} from '@lsp/testing';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import type { Connection } from 'mongoose';
import {
  buildApp as buildSearchApp,
  createRepositories as createSearchRepositories,
  ensureIndexes as ensureSearchIndexes,
} from '../../search/src/app';
import { searchConfigSchema } from '../../search/src/config';
import { subscribeToApplications } from '../../search/src/events/consumed';
import { loadDefaultPanel } from '../../search/src/panel';
import { PanelStore } from '../../search/src/data/panel-store';
import { DEVELOPMENT_PAYLOAD } from '../../search/test/search-harness';
import { buildApp, createRepositories, ensureIndexes } from '../src/app';
import { dipConfigSchema } from '../src/config';
import { subscribeToProjections } from '../src/events/consumed';
import type { DipPdfs } from '../src/pdf';

export interface DipHarness {
  clock: TestClock;
  dipDb: Connection;
  /** dip's outbox, published at commit to `bus`. */
  outbox: Outbox;
  searchDb: Connection;
  gateway: TestGateway;
  redis: TestRedis;
  /** The dip service's bus: tests publish other services' events (sharing's) on it. */
  bus: EventBus;
  client(): CookieClient;
  signedIn(user?: Partial<CallerIdentity>): Promise<{ client: CookieClient; user: CallerIdentity }>;
  /** Runs a development search, saves it, and waits until the dip service has it: its id. */
  savedSearch(client: CookieClient, userId: string): Promise<string>;
  /** Waits for a condition the events bring about (polls; fails after 10 s). */
  until<T>(read: () => Promise<T | null | undefined | false>, what: string): Promise<T>;
  close(): Promise<void>;
}

export const HOUR = 3600_000;

/** A stand-in for the PDF renderer: each PDF's text names the DIP's quote code and version. */
export const TEXT_PDFS: Pick<DipPdfs, 'get'> = {
  get: async (dip) => Buffer.from(`%PDF-1.7 test ${dip.quoteCode} v${dip.version}`),
};

/**
 * The search and dip services in-process behind the real gateway, on the embedded MongoDB (a database
 * each) and a leased Redis database carrying their events through the Redis Streams bus, outbox relays
 * and consumers included: what a saved search, a DIP and an application do across services is real.
 */
export function startDipHarness(
  opts: {
    pdfs?: Pick<DipPdfs, 'get'>;
    /** Where dip asks sharing about shares it has not heard of; by default a port nothing answers on. */
    sharingUrl?: string;
    /** MongoDB for fault tests: fail points, and connections that report their commands. */
    testCommands?: boolean;
  } = {},
): Promise<DipHarness> {
  const mongoOptions = { testCommands: opts.testCommands };
  return startHarness(async ({ mongo: testMongo, redis, env, onClose }) => {
    const logger = silentLogger();
    const prefix = `events-${randomBytes(4).toString('hex')}:`;
    const newBus = () =>
      new RedisStreamsEventBus({ redisUrl: redis.url, prefix, blockMs: 100, claimIntervalMs: 500 });

    const searchDb = await testMongo.database('search');
    const searchOutbox = await Outbox.open(searchDb);
    const panels = new PanelStore(searchDb, logger);
    await panels.load(loadDefaultPanel);
    const searchRepositories = createSearchRepositories(searchDb, searchOutbox);
    await ensureSearchIndexes(searchRepositories);
    // search and dip ask each other directly (a saved search, an application's search), so each must
    // know the other's address before either is built.
    const searchPort = await freePort();
    const dipPort = await freePort();
    const searchConfig = searchConfigSchema.parse({ ...env, DIP_URL: `http://127.0.0.1:${dipPort}` });
    const searchApp = buildSearchApp({
      config: searchConfig,
      logger,
      metrics: new ServiceMetrics('search'),
      healthChecks: [],
      panels,
      ...searchRepositories,
    });
    const searchBus = newBus();
    subscribeToApplications(
      searchBus,
      await ProcessedEvents.open(searchDb),
      searchRepositories.savedSearches,
    );

    const dipDb = await testMongo.database('dip');
    const dipOutbox = await Outbox.open(dipDb);
    const repositories = createRepositories(dipDb, dipOutbox);
    await ensureIndexes(repositories);
    const dipBus = newBus();
    const clock = new TestClock();
    subscribeToProjections(dipBus, {
      processed: await ProcessedEvents.open(dipDb),
      savedSearches: repositories.savedSearches,
      access: repositories.access,
      dips: repositories.dips,
      clock,
    });
    const config = dipConfigSchema.parse({
      ...env,
      PUBLIC_URL: 'http://localhost:8080',
      SEARCH_URL: `http://127.0.0.1:${searchPort}`,
      SHARING_URL: opts.sharingUrl ?? DOWN_URL,
    });
    const pdfs = opts.pdfs ?? {
      get: async () => {
        throw new Error('no PDF renderer in this harness');
      },
    };
    const dipApp = buildApp({
      config,
      logger,
      metrics: new ServiceMetrics('dip'),
      healthChecks: [],
      clock,
      pdfs,
      ...repositories,
    });

    // As in production, each outbox is published at commit by the process that wrote it; the relays'
    // safety-net poll is an hour, so no test here passes by waiting for it.
    searchOutbox.publishAtCommit({ bus: searchBus });
    dipOutbox.publishAtCommit({ bus: dipBus });
    const relays = [
      new OutboxRelay({ outbox: searchOutbox, bus: searchBus, pollIntervalMs: HOUR }),
      new OutboxRelay({ outbox: dipOutbox, bus: dipBus, pollIntervalMs: HOUR }),
    ];
    for (const relay of relays) relay.start();
    await searchBus.start();
    await dipBus.start();
    onClose(async () => {
      for (const relay of relays) await relay.stop();
      await searchOutbox.drain();
      await dipOutbox.drain();
      await searchBus.close();
      await dipBus.close();
    });

    const searchServer = await listen(searchApp, searchPort);
    onClose(() => searchServer.close());
    const dipServer = await listen(dipApp, dipPort);
    onClose(() => dipServer.close());
    const gateway = await startTestGateway({
      redisUrl: redis.url,
      upstreams: { search: searchServer.url, dip: dipServer.url },
      env: { RATE_LIMIT_MAX: '100000' },
    });
    onClose(() => gateway.close());

    const until = <T>(read: () => Promise<T | null | undefined | false>, what: string): Promise<T> =>
      waitFor(read, what, 10_000, 50) as Promise<T>;

    return {
      clock,
      dipDb,
      outbox: dipOutbox,
      searchDb,
      gateway,
      redis,
      bus: dipBus,
      until,
      client: () => new CookieClient(gateway.url),
      signedIn: (user = {}) =>
        signedInClient(gateway, redis, {
          email: `${randomBytes(4).toString('hex')}@example.co.uk`,
          name: 'Alex Investor',
          ...user,
        }),
      async savedSearch(client, userId) {
        // The saved search is the run's own record: the address travels with the search itself.
        const searchData = { ...DEVELOPMENT_PAYLOAD, propertyAddress: '12 Mill Lane, Leeds' };
        const run = await client.post('/api/development', { ...searchData, userId });
        if (run.status !== 200) throw new Error(`search failed: ${run.status} ${run.text}`);
        const saved = await client.post('/api/search', {
          userId,
          loanType: 'development',
          searchData,
          apiResponse: run.json(),
        });
        if (saved.status !== 201) throw new Error(`save failed: ${saved.status} ${saved.text}`);
        const id = saved.json().search.id as string;
        await until(() => repositories.savedSearches.find(id), 'the saved search to reach the dip service');
        return id;
      },
    };
  }, mongoOptions);
}
