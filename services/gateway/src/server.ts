import '@lsp/service-kit/tracing';
import { runUntilSignalled } from '@lsp/service-kit';
import { buildGatewayProcess } from './service';

async function main() {
  const { app, config, logger, closers } = buildGatewayProcess();
  const address = await runUntilSignalled(app, { host: config.HOST, port: config.PORT, logger, closers });
  logger.info({ address }, 'gateway listening');
}

void main();
