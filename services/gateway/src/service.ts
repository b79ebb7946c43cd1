import { ServiceMetrics, createLogger, createRedis, loadConfigOrExit } from '@lsp/service-kit';
import { buildGateway } from './app';
import { gatewayConfigSchema } from './config';
import type { InProcessUpstreams } from './in-process';

/**
 * The gateway's process, as its own entry point runs it alone and as the all-in-one host runs it in
 * front of the others (`inProcess`: the upstreams it then reaches without a socket).
 */
export function buildGatewayProcess(opts: { env?: NodeJS.ProcessEnv; inProcess?: InProcessUpstreams } = {}) {
  const config = loadConfigOrExit(gatewayConfigSchema, opts.env ?? process.env);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const redis = createRedis(config.REDIS_URL, 'producer');
  const app = buildGateway({
    config,
    logger,
    metrics: new ServiceMetrics('gateway'),
    redis,
    inProcess: opts.inProcess,
  });
  return { name: 'gateway', app, config, logger, closers: [{ name: 'redis', close: () => redis.quit() }] };
}
