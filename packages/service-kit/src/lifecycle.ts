import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { flushTracing } from './tracing/context';

export type Closer = { name: string; close: () => Promise<unknown> };

/**
 * Listens, then on SIGTERM/SIGINT stops accepting, lets in-flight requests finish (fastify's
 * close), then closes consumers, workers and connections in the order given.
 */
export async function runUntilSignalled(
  app: FastifyInstance,
  opts: { host: string; port: number; logger: Logger; closers?: Closer[]; shutdownTimeoutMs?: number },
): Promise<string> {
  const address = await app.listen({ host: opts.host, port: opts.port });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    opts.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      opts.logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, opts.shutdownTimeoutMs ?? 15000);
    force.unref();
    try {
      await app.close();
      for (const closer of opts.closers ?? []) {
        await closer.close().catch((err) => opts.logger.error({ err, closer: closer.name }, 'close failed'));
      }
      opts.logger.info('stopped');
      await flushTracing().catch((err) => opts.logger.warn({ err }, 'spans not sent'));
      process.exit(0);
    } catch (err) {
      opts.logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return address;
}
