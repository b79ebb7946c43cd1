import { openServiceRuntime, runUntilSignalled } from '@lsp/service-kit';
import { buildApp } from './app';
import { searchConfigSchema } from './config';

async function main() {
  const runtime = await openServiceRuntime({ name: 'search', configSchema: searchConfigSchema, dbName: 'search' });
  const app = buildApp(runtime);
  await runUntilSignalled(app, {
    host: runtime.config.HOST,
    port: runtime.config.PORT,
    logger: runtime.logger,
    closers: runtime.closers,
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
