import { openServiceRuntime, runUntilSignalled } from '@lsp/service-kit';
import { buildApp } from './app';
import { notificationsConfigSchema } from './config';

async function main() {
  const runtime = await openServiceRuntime({ name: 'notifications', configSchema: notificationsConfigSchema, dbName: 'notifications' });
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
