/**
 * The first import of every process's entry point, before anything it instruments (http, fastify,
 * pino, ioredis, mongodb, kafkajs) is loaded. With no OTLP endpoint configured (or
 * `OTEL_SDK_DISABLED=true`) it loads nothing else and tracing costs nothing.
 */
import { TracingConfigError, tracingConfigFromEnv } from './tracing/config';

try {
  const config = tracingConfigFromEnv(process.env);
  if (config) (require('./tracing/sdk') as typeof import('./tracing/sdk')).startTracingSdk(config);
} catch (err) {
  if (!(err instanceof TracingConfigError)) throw err;
  process.stderr.write(`Invalid tracing configuration: ${err.message}\n`);
  process.exit(78);
}
