import {
  DIP_INTERNAL_PATHS,
  type DipState,
  type RunOfferAnswer,
  type RunOfferQuery,
  SEARCH_INTERNAL_PATHS,
  dipStateSchema,
  runOfferAnswerSchema,
} from '@lsp/contracts';
import {
  type EventOutbox,
  InternalReader,
  type ServiceRuntime,
  createServiceApp,
  type Clock,
  systemClock,
} from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import type { SharingConfig } from './config';
import { SharingAllowances } from './data/allowances';
import type { SharingRepositories } from './data/repositories';
import { ShareLinkSigner } from './domain/signed-links';
import { registerDealRoutes } from './http/deals';
import { registerInternalReads } from './http/internal';
import { registerShareRoutes } from './http/shares';

export type SharingDeps = Pick<
  ServiceRuntime<SharingConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
> & {
  redis: Redis;
  repositories: SharingRepositories;
  outbox: EventOutbox;
  /** The clock every expiry is judged by (tests move it). */
  clock?: Clock;
  /** The dip service, asked for a DIP as it is now; by default over HTTP at DIP_URL. */
  askDip?: (dipId: string) => Promise<DipState | null>;
  /** The search service, asked for a run's offer; by default over HTTP at SEARCH_URL. */
  askSearch?: (query: RunOfferQuery) => Promise<RunOfferAnswer>;
};

/** Asks the dip service (DIP_URL) for a DIP's current state. */
export function dipReader(config: Pick<SharingConfig, 'DIP_URL' | 'INTERNAL_SECRET'>) {
  const dip = new InternalReader({
    baseUrl: config.DIP_URL,
    internalSecret: config.INTERNAL_SECRET,
    owner: 'dip',
  });
  return (dipId: string) =>
    dip.get(DIP_INTERNAL_PATHS.dipState.replace(':dipId', encodeURIComponent(dipId)), dipStateSchema);
}

/** Asks the search service (SEARCH_URL) for one offer of a run, as its record has it. */
export function runOfferReader(config: Pick<SharingConfig, 'SEARCH_URL' | 'INTERNAL_SECRET'>) {
  const search = new InternalReader({
    baseUrl: config.SEARCH_URL,
    internalSecret: config.INTERNAL_SECRET,
    owner: 'search',
  });
  return async (query: RunOfferQuery): Promise<RunOfferAnswer> =>
    (await search.post(SEARCH_INTERNAL_PATHS.runOffer, query, runOfferAnswerSchema)) ?? {
      outcome: 'run-not-found',
    };
}

export function buildApp(deps: SharingDeps) {
  const app = createServiceApp({
    name: 'sharing',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
    metricsToken: deps.config.METRICS_TOKEN,
  });
  const common = { ...deps, clock: deps.clock ?? systemClock };
  // DIP shares, deal shares and referrals spend one allowance of invitation emails.
  const allowances = new SharingAllowances(deps.redis, deps.logger, deps.config);
  registerShareRoutes(app, {
    ...common,
    allowances,
    signer: new ShareLinkSigner(deps.config),
    askDip: deps.askDip ?? dipReader(deps.config),
  });
  registerDealRoutes(app, {
    ...common,
    allowances,
    askSearch: deps.askSearch ?? runOfferReader(deps.config),
  });
  registerInternalReads(app, { ...common, internalSecret: deps.config.INTERNAL_SECRET });
  return app;
}
