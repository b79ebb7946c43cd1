// GET /api/ops/events/stream: Server-Sent Events written by hand on the raw response (a few lines;
// no plugin to keep in step with fastify). Each event is `id: <position>` + `data: <envelope>`; a
// reconnect's Last-Event-ID (or ?lastEventId=) resumes after that position.
import { REQUEST_ID_HEADER, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { type FeedFilter, sseEvent } from './feed';
import type { EventTap } from './tap';

export interface StreamTimings {
  statsEveryMs: number;
  keepAliveEveryMs: number;
}

/**
 * Stats every 5 s also keep the connection busy: the gateway's proxy gives up on a response body that
 * is silent for UPSTREAM_TIMEOUT_MS (10 s by default).
 */
export const DEFAULT_STREAM_TIMINGS: StreamTimings = { statsEveryMs: 5000, keepAliveEveryMs: 15_000 };

export function registerEventStream(app: FastifyInstance, tap: EventTap, timings = DEFAULT_STREAM_TIMINGS) {
  const open = new Set<ServerResponse>();
  // Open streams would hold app.close() until they end by themselves.
  app.addHook('preClose', async () => {
    for (const raw of open) raw.end();
  });

  declareRoute(app, 'streamOpsEvents', async (request, reply) => {
    const { query } = request;
    const header = request.headers['last-event-id'];
    const lastEventId =
      (typeof header === 'string' && header.trim() ? header.trim() : undefined) ?? query.lastEventId;
    const filter: FeedFilter = {
      type: query.type,
      ...(query.subject !== undefined ? { subject: query.subject } : {}),
      ...(query.correlationId !== undefined ? { correlationId: query.correlationId } : {}),
    };

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      [REQUEST_ID_HEADER]: request.id,
    });
    raw.write('retry: 2000\n\n');
    open.add(raw);

    const backlog = await tap.backlog(filter, lastEventId);
    if (raw.destroyed || raw.writableEnded) {
      open.delete(raw);
      return reply;
    }
    // Registered in the same tick as the backlog was taken, so no event falls between the two.
    const viewer = tap.hub.addViewer(filter, {
      write: (frame) => raw.write(frame),
      onDrain: (listener) => raw.on('drain', listener),
    });
    viewer.offer(backlog);
    request.log.info(
      { viewer: viewer.id, filter, lastEventId, backlog: backlog.length },
      'ops feed viewer connected',
    );

    const stats = setInterval(() => viewer.notice(sseEvent('stats', viewer.stats())), timings.statsEveryMs);
    const keepAlive = setInterval(() => viewer.notice(': keep-alive\n\n'), timings.keepAliveEveryMs);
    const closed = () => {
      clearInterval(stats);
      clearInterval(keepAlive);
      tap.hub.removeViewer(viewer);
      open.delete(raw);
    };
    // The response closes when the viewer goes away (or the app closes): the viewer is let go.
    raw.on('close', closed);
    return reply;
  });
}
