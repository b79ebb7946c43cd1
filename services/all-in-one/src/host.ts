// The all-in-one host: every service, worker and static server of the platform in one Node process,
// each built by its own definition with its own configuration, database, consumer groups and outbox,
// exactly as when each runs alone. The gateway reaches them by a direct dispatch to their apps (no
// socket); each still listens on its own port for its health, metrics and the reads services make
// of one another. This is the one place allowed to import services' code (eslint-rules/boundaries.mjs).
import path from 'node:path';
import { PLATFORM_PROCESSES } from '@lsp/contracts';
import { buildStaticServer } from '@lsp/frontend-kit';
import {
  type BuiltService,
  type Closer,
  type ServiceDefinition,
  baseConfigSchema,
  buildService,
  connectMongo,
  createLogger,
} from '@lsp/service-kit';
import { dipService, pdfWorker } from '@lsp/dip/processes';
import {
  type InProcessUpstreams,
  type StaticUpstreamName,
  buildGatewayProcess,
} from '@lsp/gateway/processes';
import { identityService } from '@lsp/identity/processes';
import { emailWorker, notificationsService } from '@lsp/notifications/processes';
import { repricingWorker, searchService } from '@lsp/search/processes';
import { sharingService } from '@lsp/sharing/processes';
import type { FastifyInstance } from 'fastify';

/** The repository's root: this file is services/all-in-one/src/host.ts, or dist/host.js compiled. */
const ROOT = path.resolve(__dirname, '../../..');

/** Every service and worker of the process registry, by its registry name. */
export const HOSTED_DEFINITIONS: Record<string, ServiceDefinition<any>> = {
  identity: identityService,
  search: searchService,
  dip: dipService,
  'pdf-worker': pdfWorker,
  'repricing-worker': repricingWorker,
  sharing: sharingService,
  notifications: notificationsService,
  'email-worker': emailWorker,
};

/** How each frontend's static server serves its webpack build (as its own server.ts does). */
const STATIC_SERVERS: Record<StaticUpstreamName, { prefix?: string; spaFallback: boolean }> = {
  shell: { spaFallback: true },
  'search-mf': { prefix: '/mf/search/', spaFallback: false },
  'dashboard-mf': { prefix: '/mf/dashboard/', spaFallback: false },
};

/** The services and workers of the registry, in its order (the order `npm -- --split` starts them). */
export function registryDefinitions(): ServiceDefinition<any>[] {
  return PLATFORM_PROCESSES.filter((proc) => proc.kind === 'service' || proc.kind === 'worker')
    .filter((proc) => proc.name !== 'gateway')
    .map((proc) => {
      const definition = HOSTED_DEFINITIONS[proc.name];
      if (!definition) throw new Error(`the all-in-one host has no definition for ${proc.name}`);
      return definition;
    });
}

/** The webpack build of each frontend, beside its source (frontends/<app>/dist). */
export function registryStaticDists(): Record<StaticUpstreamName, string> {
  const dists = {} as Record<StaticUpstreamName, string>;
  for (const proc of PLATFORM_PROCESSES.filter((p) => p.kind === 'static')) {
    dists[proc.name as StaticUpstreamName] = path.join(ROOT, path.dirname(proc.entry), 'dist');
  }
  return dists;
}

export interface AllInOneOptions {
  /** The environment every process's configuration is read from (each gets its own SERVICE_NAME and PORT). */
  env: NodeJS.ProcessEnv;
  /** The port each process listens on, by registry name. */
  portOf: (name: string) => number;
  /** The services and workers to run: the registry's by default. */
  definitions?: ServiceDefinition<any>[];
  /** The static servers to run, with the build each serves: the registry's by default. */
  staticDists?: Partial<Record<StaticUpstreamName, string>>;
}

export interface AllInOne {
  gateway: FastifyInstance;
  services: BuiltService[];
  /** The gateway's address. */
  url: string;
  /** Stops the edge first, then every service (its app, then its consumers, workers and connections). */
  close(): Promise<void>;
}

async function closeInOrder(closers: Closer[], onError: (err: unknown, name: string) => void) {
  for (const closer of closers) await closer.close().catch((err) => onError(err, closer.name));
}

export async function startAllInOne(options: AllInOneOptions): Promise<AllInOne> {
  const definitions = options.definitions ?? registryDefinitions();
  const staticDists = options.staticDists ?? registryStaticDists();
  const envOf = (name: string) => ({
    ...options.env,
    SERVICE_NAME: name,
    PORT: String(options.portOf(name)),
  });
  // One MongoDB client for all: each service gets its own database on it, with one pool and one
  // server monitor between them instead of one each (each pool wakes once a second at rest).
  const hostLogger = createLogger('all-in-one', options.env.LOG_LEVEL ?? 'info');
  const sharedMongo = await connectMongo(
    baseConfigSchema.shape.MONGO_URL.parse(options.env.MONGO_URL),
    'admin',
    hostLogger,
  );
  const database = (dbName: string) => sharedMongo.useDb(dbName, { useCache: true });
  const services: BuiltService[] = [];
  const statics: Array<{ name: StaticUpstreamName; app: FastifyInstance }> = [];
  let gateway: ReturnType<typeof buildGatewayProcess> | null = null;

  const close = async () => {
    if (gateway) {
      await gateway.app.close();
      await closeInOrder(gateway.closers, (err, name) =>
        gateway?.logger.error({ err, closer: name }, 'close failed'),
      );
    }
    await Promise.all(statics.map(({ app }) => app.close()));
    await Promise.all(
      services.map(async ({ app, runtime }) => {
        await app.close();
        await closeInOrder(runtime.closers, (err, name) =>
          runtime.logger.error({ err, closer: name }, 'close failed'),
        );
        runtime.logger.info('stopped');
      }),
    );
    await sharedMongo.close();
  };

  try {
    // Built one after another: each opens its connections and starts its consumers, as it would alone.
    for (const definition of definitions) {
      services.push(
        await buildService(definition, { env: envOf(definition.name), sharesProcess: true, database }),
      );
    }
    for (const [name, dist] of Object.entries(staticDists) as Array<[StaticUpstreamName, string]>) {
      statics.push({ name, app: await buildStaticServer({ dist, ...STATIC_SERVERS[name] }) });
    }
    const inProcess: InProcessUpstreams = {};
    for (const { name, app } of [...services, ...statics]) {
      if (name in STATIC_SERVERS || PLATFORM_PROCESSES.some((p) => p.name === name && p.kind === 'service'))
        inProcess[name as keyof InProcessUpstreams] = app;
    }
    gateway = buildGatewayProcess({ env: envOf('gateway'), inProcess });

    // Each still listens on its own port: its /health and /metrics, and the reads services make of one another.
    for (const { name, app, runtime } of services) {
      const address = await app.listen({ host: runtime.config.HOST, port: runtime.config.PORT });
      runtime.logger.info({ address }, `${name} listening`);
    }
    for (const { name, app } of statics) {
      await app.listen({ host: options.env.HOST || '127.0.0.1', port: options.portOf(name) });
    }
    const url = await gateway.app.listen({ host: gateway.config.HOST, port: gateway.config.PORT });
    gateway.logger.info({ address: url }, 'gateway listening');
    return { gateway: gateway.app, services, url, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}
