// The static server every frontend runs in production: the built files from dist/, with caching
// that lets browsers keep hashed assets for a year while always re-checking the files that name
// them (index.html, mf-manifest.json, remoteEntry.js), so a redeploy is picked up at once.
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cacheControlFor } from './cache-control';

export interface StaticServerOptions {
  /** The folder built by webpack. */
  dist: string;
  /** Remotes are reached through the gateway under /mf/<name>/; they answer there and at /. */
  prefix?: string;
  /** The shell answers every unknown page path with index.html; its router shows the page or its 404. */
  spaFallback: boolean;
}

export async function buildStaticServer({
  dist,
  prefix,
  spaFallback,
}: StaticServerOptions): Promise<FastifyInstance> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} has no build: run \`npm run build\` first`);
  }
  const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
  app.get('/alive', async () => ({ status: 'ok' }));

  const setHeaders = (reply: FastifyReply, filePath: string) => {
    reply.header('cache-control', cacheControlFor(filePath));
  };
  // The build writes .br and .gz beside each asset; the smallest the browser accepts is sent.
  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/',
    cacheControl: false,
    setHeaders,
    wildcard: true,
    preCompressed: true,
  });
  if (prefix)
    await app.register(fastifyStatic, {
      root: dist,
      prefix,
      cacheControl: false,
      setHeaders,
      decorateReply: false,
      wildcard: true,
      preCompressed: true,
    });

  app.setNotFoundHandler(async (request, reply) => {
    const pathOnly = request.url.split('?')[0];
    // A missing asset is a real 404; a page path is the single-page app's to render.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(pathOnly);
    if (spaFallback && (request.method === 'GET' || request.method === 'HEAD') && !looksLikeFile) {
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html').sendFile('index.html', dist);
    }
    return reply.status(404).type('text/plain').send('Not found');
  });
  return app;
}

function portFromEnv(defaultPort: number): number {
  const raw = process.env.PORT;
  if (raw === undefined || raw === '') return defaultPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    console.error(`PORT must be a port number, got "${raw}"`);
    process.exit(1);
  }
  return port;
}

/**
 * Entry point helper: listens on PORT (or the default) and closes cleanly on SIGTERM/SIGINT. The image
 * puts the webpack output beside the compiled server (`dist/` next to it); STATIC_DIST names another
 * folder, as the single-machine stack does when it runs the compiled server against the build in
 * frontends/<app>/dist.
 */
export async function runStaticServer(options: StaticServerOptions & { defaultPort: number }): Promise<void> {
  const app = await buildStaticServer({ ...options, dist: process.env.STATIC_DIST || options.dist });
  const port = portFromEnv(options.defaultPort);
  await app.listen({ port, host: process.env.HOST || '127.0.0.1' });
  const close = (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => close('SIGTERM'));
  process.once('SIGINT', () => close('SIGINT'));
}
