import { randomBytes } from 'node:crypto';
import type { LoanType } from '@lsp/contracts';
import {
  type CallerIdentity,
  Outbox,
  type OutboxEntry,
  ProcessedEvents,
  RedisStreamsEventBus,
  ServiceMetrics,
} from '@lsp/service-kit';
import {
  CookieClient,
  DOWN_URL,
  listen,
  outboxEntries,
  signedInClient,
  silentLogger,
  startHarness,
} from '@lsp/testing';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import type { FastifyInstance } from 'fastify';
import type { Connection } from 'mongoose';
import { buildApp, createRepositories, ensureIndexes } from '../src/app';
import { searchConfigSchema } from '../src/config';
import { type Panel, loadDefaultPanel } from '../src/panel';
import { PanelStore } from '../src/data/panel-store';
import { SavedSearchRepository } from '../src/data/saved-searches';
import { subscribeToApplications } from '../src/events/consumed';
import { SEARCH_PAYLOADS } from '../../../scripts/lib/journeys';

/**
 * The search service in-process on the embedded MongoDB (or MONGO_URL), behind the real gateway on a
 * leased Redis database: requests in the tests travel exactly as a browser's would.
 */
export interface SearchHarness {
  mongo: Connection;
  outbox: Outbox;
  panels: PanelStore;
  search: FastifyInstance;
  gateway: TestGateway;
  /** The Redis database leased to this harness (the gateway's sessions, the re-pricing queue). */
  redisUrl: string;
  /** A new browser-like client with no session. */
  client(): CookieClient;
  /** A new client signed in as the given user (a session record in Redis, a signed cookie). */
  signedIn(user?: Partial<CallerIdentity>): Promise<{ client: CookieClient; user: CallerIdentity }>;
  outboxEntries(type?: string): Promise<OutboxEntry[]>;
  /** Runs `close` when the harness closes, before it stops its own parts: the last registered first. */
  onClose(close: () => Promise<unknown>): void;
  close(): Promise<void>;
}

export function startSearchHarness(
  opts: {
    /** MongoDB for fault tests: fail points, and connections that report their commands. */
    testCommands?: boolean;
  } = {},
): Promise<SearchHarness> {
  const mongoOptions = { testCommands: opts.testCommands };
  return startHarness(async ({ mongo: testMongo, redis, env, onClose }) => {
    const mongo = await testMongo.database('search');
    const outbox = await Outbox.open(mongo);
    const logger = silentLogger();
    const panels = new PanelStore(mongo, logger, outbox);
    await panels.load(loadDefaultPanel);
    const repositories = createRepositories(mongo, outbox);
    await ensureIndexes(repositories);
    const config = searchConfigSchema.parse({
      ...env,
      // No dip here: its application status reads find nothing listening, never a stack on this machine.
      DIP_URL: DOWN_URL,
    });
    const search = buildApp({
      config,
      logger,
      metrics: new ServiceMetrics('search'),
      healthChecks: [],
      panels,
      ...repositories,
    });
    const searchServer = await listen(search);
    onClose(() => searchServer.close());
    const gateway = await startTestGateway({ redisUrl: redis.url, upstreams: { search: searchServer.url } });
    onClose(() => gateway.close());
    return {
      mongo,
      outbox,
      panels,
      search,
      gateway,
      redisUrl: redis.url,
      client: () => new CookieClient(gateway.url),
      signedIn: (user = {}) =>
        signedInClient(gateway, redis, { email: 'investor@example.co.uk', name: 'Alex Investor', ...user }),
      outboxEntries: (type) => outboxEntries(outbox, type),
      onClose,
    };
  }, mongoOptions);
}

/**
 * A publisher and a consumer (polling every 100 ms) on a stream prefix of their own in the harness's
 * Redis, as a test feeds one of search's consumers through the Redis Streams bus. The harness closes
 * them, the consumer first.
 */
export function eventBuses(h: SearchHarness, name: string) {
  const prefix = `${name}:${randomBytes(4).toString('hex')}:`;
  const publisher = new RedisStreamsEventBus({ redisUrl: h.redisUrl, prefix });
  const consumer = new RedisStreamsEventBus({ redisUrl: h.redisUrl, prefix, blockMs: 100 });
  h.onClose(() => publisher.close());
  h.onClose(() => consumer.close());
  return { publisher, consumer };
}

/**
 * Search's consumer of application.submitted, started on buses of its own (`eventBuses`): the bus to
 * publish the events on.
 */
export async function consumeApplications(h: SearchHarness, name: string): Promise<RedisStreamsEventBus> {
  const { publisher, consumer } = eventBuses(h, name);
  subscribeToApplications(
    consumer,
    await ProcessedEvents.open(h.mongo),
    new SavedSearchRepository(h.mongo, h.outbox),
  );
  await consumer.start();
  return publisher;
}

/**
 * Runs a search as the client and saves it with the run's answer, as the home page does after a
 * completed search: the answer and the saved search's id.
 */
export async function runAndSaveSearch(
  client: CookieClient,
  userId: string,
  searchData: object = DEVELOPMENT_PAYLOAD,
  loanType: LoanType = 'development',
) {
  const run = await client.post(`/api/${loanType}`, { ...searchData, userId });
  expect(run.status).toBe(200);
  const saved = await client.post('/api/search', { userId, loanType, searchData, apiResponse: run.json() });
  expect(saved.status).toBe(201);
  return { run: run.json(), id: saved.json().search.id as string };
}

/** The panel with one lender's bridging product at half its rates, under a new version. */
export function halfRatesPanel(panel: Panel, version: string, lenderId: string, productId: string): Panel {
  return {
    ...panel,
    version,
    lenders: panel.lenders.map((l) =>
      l.id !== lenderId
        ? l
        : {
            ...l,
            products: l.products.map((p) =>
              p.id !== productId || p.loanType !== 'bridging'
                ? p
                : { ...p, rateCard: p.rateCard.map((b) => ({ ...b, ratePerMonth: b.ratePerMonth / 2 })) },
            ),
          },
    ),
  };
}

/** The envelope an outbox entry will publish. */
export function envelopeOf(entry: OutboxEntry) {
  return JSON.parse(entry.payload) as {
    type: string;
    subject: string;
    data: Record<string, unknown>;
    source: string;
  };
}

/**
 * Valid payloads for each loan type, as the forms send them (numbers as typed, with separators): the
 * ones the load and chaos runs send; the development borrower also answers the readiness questions.
 */
export const DEVELOPMENT_PAYLOAD = {
  ...SEARCH_PAYLOADS.development,
  hasViewedProperty: true,
  ownsProperty: false,
  agreedPurchasePrice: true,
};

export const BRIDGING_PAYLOAD = SEARCH_PAYLOADS.bridging;

export const COMMERCIAL_PAYLOAD = SEARCH_PAYLOADS.commercial;

export const LEAD = {
  name: 'Alex Investor',
  email: 'alex@example.co.uk',
  phone: '07700 900123',
  propertiesOwned: '2-4',
  contactPreference: 'Email',
  consent: true,
};
