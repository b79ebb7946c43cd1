import {
  ServiceMetrics,
  createLogger,
  createRedis,
  loadConfigOrExit,
  runUntilSignalled,
} from '@lsp/service-kit';
import { buildGateway } from './app';
import { gatewayConfigSchema } from './config';

async function main() {
  const config = loadConfigOrExit(gatewayConfigSchema);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const redis = createRedis(config.REDIS_URL, 'producer');
  const app = buildGateway({ config, logger, metrics: new ServiceMetrics('gateway'), redis });
  const address = await runUntilSignalled(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    closers: [{ name: 'redis', close: () => redis.quit() }],
  });
  logger.info({ address }, 'gateway listening');
}

void main();
