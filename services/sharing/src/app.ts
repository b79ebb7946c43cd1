import { type ServiceRuntime, createServiceApp } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import type { SharingConfig } from './config';
import type { EventOutbox } from './events';
import type { SharingCollections } from './models';
import { registerDealRoutes } from './routes/deals';
import { registerShareRoutes } from './routes/shares';
import { ShareLinkSigner } from './signed-links';

export type SharingDeps = Pick<
  ServiceRuntime<SharingConfig>,
  'config' | 'logger' | 'metrics' | 'healthChecks' | 'mongo'
> & {
  redis: Redis;
  collections: SharingCollections;
  outbox: EventOutbox;
  /** The clock every expiry is judged by (injectable for tests). */
  now?: () => Date;
};

export function buildApp(deps: SharingDeps) {
  const app = createServiceApp({
    name: 'sharing',
    logger: deps.logger,
    metrics: deps.metrics,
    healthChecks: deps.healthChecks,
    internalSecret: deps.config.INTERNAL_SECRET,
  });
  const now = deps.now ?? (() => new Date());
  const common = { ...deps, now };
  registerShareRoutes(app, { ...common, signer: new ShareLinkSigner(deps.config) });
  registerDealRoutes(app, common);
  return app;
}
