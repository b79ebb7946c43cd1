import {
  type EventOutbox,
  type ServiceRuntime,
  createServiceApp,
  type Clock,
  systemClock,
} from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import type { SharingConfig } from './config';
import type { SharingCollections } from './data/collections';
import { ShareLinkSigner } from './domain/signed-links';
import { registerDealRoutes } from './http/deals';
import { registerShareRoutes } from './http/shares';

export type SharingDeps = Pick<
  ServiceRuntime<SharingConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
> & {
  redis: Redis;
  collections: SharingCollections;
  outbox: EventOutbox;
  /** The clock every expiry is judged by (tests move it). */
  clock?: Clock;
};

export function buildApp(deps: SharingDeps) {
  const app = createServiceApp({
    name: 'sharing',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });
  const common = { ...deps, clock: deps.clock ?? systemClock };
  registerShareRoutes(app, { ...common, signer: new ShareLinkSigner(deps.config) });
  registerDealRoutes(app, common);
  return app;
}
