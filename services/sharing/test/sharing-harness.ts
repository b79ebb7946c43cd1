import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AccessAnswer,
  type AccessQuery,
  DIP_EVENT_TYPES,
  SHARING_INTERNAL_PATHS,
  accessAnswerSchema,
  type DipCreatedEvent,
  type DipState,
  type EventEnvelope,
  createEnvelope,
  dipCreatedEventSchema,
} from '@lsp/contracts';
import {
  type CallerIdentity,
  InternalReader,
  Outbox,
  ProcessedEvents,
  ServiceMetrics,
} from '@lsp/service-kit';
import {
  CookieClient,
  DOWN_URL,
  TEST_SECRETS,
  listen,
  outboxEnvelopes,
  signedInClient,
  silentLogger,
  startHarness,
} from '@lsp/testing';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import type { Connection } from 'mongoose';
import {
  buildApp as buildSearchApp,
  createRepositories as createSearchRepositories,
  ensureIndexes as ensureSearchIndexes,
} from '../../search/src/app';
import { searchConfigSchema } from '../../search/src/config';
import { PanelStore } from '../../search/src/data/panel-store';
import { loadDefaultPanel } from '../../search/src/panel';
import { BRIDGING_PAYLOAD } from '../../search/test/search-harness';
import { buildApp } from '../src/app';
import { sharingConfigSchema } from '../src/config';
import { type SharingCollections, ensureSharingIndexes, sharingCollections } from '../src/data/collections';
import { sharingRepositories } from '../src/data/repositories';
import { CONSUMER, handleDipEvent } from '../src/events/consumed';

export const SHARE_LINK_SECRET = 'current-share-link-secret-0123456789abcdef';
export const PREVIOUS_SHARE_LINK_SECRET = 'previous-share-link-secret-0123456789abcdef';

/**
 * The sharing service in-process behind the real gateway, with a clock the test moves. DIPs reach it
 * as dip.* events the test publishes through the same idempotent handler the bus drives.
 */
export interface SharingHarness {
  mongo: Connection;
  outbox: Outbox;
  collections: SharingCollections;
  gateway: TestGateway;
  redisUrl: string;
  /** The search service sharing asks for a run's offer (its SEARCH_URL). */
  searchUrl: string;
  clock: { now: Date };
  client(): CookieClient;
  signedIn(user?: Partial<CallerIdentity>): Promise<{ client: CookieClient; user: CallerIdentity }>;
  /**
   * What the dip service answers when sharing asks for a DIP: by default what the delivered events
   * made of it (sharing's own projection); a test sets a DIP's state here to play a dip service that
   * has moved on before its event arrives.
   */
  ownerStates: Map<string, DipState>;
  /** Delivers a dip.* event as the bus would (once per event id). Resolves true when it changed state. */
  deliver(envelope: EventEnvelope): Promise<boolean>;
  /** A DIP owned by the user, known to sharing through dip.created. */
  createDip(owner: CallerIdentity, overrides?: Partial<DipCreatedEvent>): Promise<DipCreatedEvent>;
  outboxEvents(type?: string): Promise<Array<{ id: string; type: string; data: Record<string, unknown> }>>;
  /**
   * Runs a bridging search as `client` (through the gateway, to the real search service sharing asks)
   * and answers its first offer with the fields a deal share names it by.
   */
  searchOffer(client: CookieClient): Promise<SearchedOffer>;
  /** What sharing answers dip on `POST /internal/access` (which live shares a person holds). */
  internalAccess(query: AccessQuery): Promise<AccessAnswer>;
  close(): Promise<void>;
}

/** One offer of a search run: the offer as the search answered it, and how a deal share names it. */
export interface SearchedOffer {
  offer: Record<string, unknown>;
  /** The deal-share body's offer fields: the run, the lender and product, the loan type and loanData. */
  deal: {
    searchRunId: string;
    lenderId: string;
    productId: string;
    loanType: 'bridging';
    loanData: string;
  };
}

export function dipEvent(type: string, data: { dipId: string } & Record<string, unknown>) {
  return createEnvelope('dip', { type, subject: data.dipId, data });
}

export const SNAPSHOT: DipCreatedEvent['snapshot'] = {
  loanType: 'bridging',
  lenderName: 'Harbour Bridging',
  lenderId: 'harbour',
  productId: 'harbour-12',
  productName: 'Harbour 12-month bridge',
  projectName: 'Chapel Street refinance',
  propertyAddress: '14 Chapel Street, Leeds',
  borrower: { name: 'Alex Owner', email: 'owner@example.co.uk', salutation: null, entity: 'Individual' },
  property: {
    addressLine1: '14 Chapel Street',
    addressLine2: null,
    city: 'Leeds',
    county: null,
    postcode: 'LS1 1AA',
    location: 'North',
    propertyType: 'Residential',
    currentValue: 650000,
    ownerOccupied: null,
  },
  loan: {
    productType: 'Bridging',
    regulated: false,
    netLoan: 350000,
    grossLoan: 372000,
    fees: 9000,
    interestRate: 0.102,
    termMonths: 12,
    ltvPercent: 57.2,
    monthlyPayment: 0,
    arrangementFeePercent: 2,
    mortgageTermYears: null,
  },
  financial: { depositRequired: 275000, purchasePrice: 600000, projectCost: 625000, buildCost: 0, gdv: null },
  promoEligibleZeroBrokerFee: true,
  searchData: { propertyLocation: 'North', loanTerm: 12 },
  offer: {
    LenderName: 'Harbour Bridging',
    LenderId: 'harbour',
    ProductId: 'harbour-12',
    ProductName: 'Harbour 12-month bridge',
    LoanType: 'bridging',
    GrossLoan: 372000,
    NetLoan: 350000,
    InterestRate: 0.102,
    TrueMonthlyCost: 0.011,
    ProfitForecast: 0,
    DepositRequired: 275000,
    MonthlyPayment: 0,
    ArrangementFee: 7440,
    ArrangementFeePercOfValue: 1.1,
    LenderExitFee: 1560,
    OtherLenderCosts: 0,
    LoanInterest: 37944,
    TotalLenderCosts: 9000,
    LoanToValue: 57.2,
    LoanToValueNet: 53.8,
    LoanTerm: 12,
    InterestTreatment: 'retained',
    qualifiesBecause: [],
    closeToLimits: [],
  },
};

/** What sharing's own projection knows of a DIP, as the dip service answers for it: null if unknown. */
export async function projectedDip(collections: SharingCollections, dipId: string): Promise<DipState | null> {
  const known = await collections.dips.findOne({ _id: dipId });
  if (!known) return null;
  const { _id, expiresAt, createdAt, linkRevokedAt, ...rest } = known;
  return {
    ...rest,
    dipId: _id,
    expiresAt: expiresAt.toISOString(),
    createdAt: createdAt.toISOString(),
    linkRevokedAt: linkRevokedAt?.toISOString() ?? null,
  };
}

export function startSharingHarness(
  configOverrides: Record<string, string> = {},
  gatewayEnv: Record<string, string> = {},
  /**
   * askDipOverHttp: ask the dip service at DIP_URL, as the service does, instead of ownerStates.
   * testCommands: MongoDB for fault tests (fail points, and connections that report their commands).
   */
  opts: { askDipOverHttp?: boolean; testCommands?: boolean } = {},
): Promise<SharingHarness> {
  const mongoOptions = { testCommands: opts.testCommands };
  return startHarness(async ({ mongo: testMongo, redis, env, onClose }) => {
    const mongo = await testMongo.database('sharing');
    const outbox = await Outbox.open(mongo);
    const processed = await ProcessedEvents.open(mongo);
    const collections = sharingCollections(mongo);
    await ensureSharingIndexes(collections);
    const repositories = sharingRepositories(mongo);
    // The search service, as deal shares ask it for a run's offer (its answer is what is shared).
    const searchDb = await testMongo.database('search');
    const searchOutbox = await Outbox.open(searchDb);
    const panels = new PanelStore(searchDb, silentLogger());
    await panels.load(loadDefaultPanel);
    const searchRepositories = createSearchRepositories(searchDb, searchOutbox);
    await ensureSearchIndexes(searchRepositories);
    const searchServer = await listen(
      buildSearchApp({
        config: searchConfigSchema.parse({ ...env, DIP_URL: DOWN_URL }),
        logger: silentLogger(),
        metrics: new ServiceMetrics('search'),
        healthChecks: [],
        panels,
        ...searchRepositories,
      }),
    );
    onClose(() => searchServer.close());
    const config = sharingConfigSchema.parse({
      ...env,
      SEARCH_URL: searchServer.url,
      SHARE_LINK_SECRET,
      INVITATIONS_PER_HOUR: '5',
      TELEMETRY_PER_MINUTE: '20',
      ...configOverrides,
    });
    const clock = { now: new Date() };
    const ownerStates = new Map<string, DipState>();
    const askDip = async (dipId: string): Promise<DipState | null> =>
      ownerStates.get(dipId) ?? projectedDip(collections, dipId);
    const app = buildApp({
      config,
      logger: silentLogger(),
      metrics: new ServiceMetrics('sharing'),
      healthChecks: [],
      mongo,
      redis: redis.redis,
      repositories,
      outbox,
      clock: { now: () => clock.now },
      ...(opts.askDipOverHttp ? {} : { askDip }),
    });
    const server = await listen(app);
    onClose(() => server.close());
    const gateway = await startTestGateway({
      redisUrl: redis.url,
      upstreams: { sharing: server.url, search: searchServer.url },
      env: gatewayEnv,
    });
    onClose(() => gateway.close());
    const onDip = handleDipEvent(repositories, outbox);
    const harness: Omit<SharingHarness, 'close'> = {
      mongo,
      outbox,
      collections,
      gateway,
      redisUrl: redis.url,
      searchUrl: searchServer.url,
      clock,
      ownerStates,
      client: () => new CookieClient(gateway.url),
      signedIn: (user = {}) =>
        signedInClient(gateway, redis, {
          email: `person-${randomBytes(4).toString('hex')}@example.co.uk`,
          name: 'Sam Person',
          ...user,
        }),
      deliver: (envelope) =>
        processed.handleOnce(`${CONSUMER}:dips`, envelope, (session) => onDip(envelope, session)),
      async createDip(owner, overrides = {}) {
        const now = clock.now;
        const data = dipCreatedEventSchema.parse({
          dipId: randomUUID(),
          ownerUserId: owner.userId,
          version: 1,
          ownerName: owner.name,
          ownerEmail: owner.email,
          searchId: randomUUID(),
          loanIndex: 0,
          quoteCode: `DIP-${randomBytes(4).toString('hex').toUpperCase()}`,
          shareSlug: randomBytes(16).toString('base64url'),
          shareUrl: 'http://localhost:8080/dip/placeholder-slug',
          validityHours: 48,
          expiresAt: new Date(now.getTime() + 48 * 3600_000).toISOString(),
          createdAt: now.toISOString(),
          snapshot: SNAPSHOT,
          ...overrides,
        });
        await harness.deliver(dipEvent(DIP_EVENT_TYPES.created, data));
        return data;
      },
      outboxEvents: (type) => outboxEnvelopes(outbox, type),
      async searchOffer(client) {
        const run = await client.post('/api/bridging', BRIDGING_PAYLOAD);
        if (run.status !== 200) throw new Error(`search failed: ${run.status} ${run.text}`);
        const answer = run.json() as {
          data: { SearchRunId: string; Results: Array<Record<string, unknown>> };
        };
        const offer = answer.data.Results[0];
        if (!offer) throw new Error('the search found no offer');
        return {
          offer,
          deal: {
            searchRunId: answer.data.SearchRunId,
            lenderId: String(offer.LenderId),
            productId: String(offer.ProductId),
            loanType: 'bridging',
            loanData: JSON.stringify(offer),
          },
        };
      },
      async internalAccess(query) {
        const reader = new InternalReader({
          baseUrl: server.url,
          internalSecret: TEST_SECRETS.INTERNAL_SECRET,
          owner: 'sharing',
        });
        return (await reader.post(SHARING_INTERNAL_PATHS.access, query, accessAnswerSchema)) as AccessAnswer;
      },
    };
    return harness;
  }, mongoOptions);
}
