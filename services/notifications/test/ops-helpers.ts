// Helpers of the operations console's tests: the app with its console, an SSE reader on a raw socket
// (so a test can also stop reading, like a slow browser), identity headers, and event factories.
import net from 'node:net';
import { type EventEnvelope, createEnvelope } from '@lsp/contracts';
import { type CallerIdentity, type EventBus, identityHeaders } from '@lsp/service-kit';
import { TEST_SECRETS, silentLogger, waitFor } from '@lsp/testing';
import type { Connection } from 'mongoose';
import { notificationsConfigSchema } from '../src/config';
import { type OpsConsole, createOpsConsole } from '../src/ops';
import { buildTestApp } from './test-app';

export const OPS_USER: CallerIdentity = {
  userId: 'ops-user-1',
  email: 'oncall@example.com',
  name: 'On Call',
  verified: true,
  roles: ['ops'],
};
export const BORROWER: CallerIdentity = {
  userId: 'borrower-1',
  email: 'borrower@example.com',
  name: 'Bo Rower',
  verified: true,
  roles: [],
};

type OpsConsoleOptions = Parameters<typeof createOpsConsole>[0];

/**
 * The notifications app serving the operations console, configured from the test secrets, the stores
 * given and `env`. The console subscribes its dead-letter collector to `bus`, so start the bus after
 * this, then the console.
 */
export async function buildAppWithOpsConsole(opts: {
  mongoUrl: string;
  db: Connection;
  redisUrl: string;
  bus: EventBus;
  env?: Record<string, string>;
  console?: Omit<OpsConsoleOptions, 'config' | 'logger' | 'mongo' | 'bus'>;
}) {
  const config = notificationsConfigSchema.parse({
    ...TEST_SECRETS,
    MONGO_URL: opts.mongoUrl,
    REDIS_URL: opts.redisUrl,
    DB_NAME: opts.db.name,
    ...opts.env,
  });
  const ops: OpsConsole = await createOpsConsole({
    config,
    logger: silentLogger(),
    mongo: opts.db,
    bus: opts.bus,
    ...opts.console,
  });
  const app = buildTestApp(config, opts.db, { ops });
  return { ops, app };
}

export const asUser = (user: CallerIdentity | null) => identityHeaders(user, TEST_SECRETS.INTERNAL_SECRET);
export const asOps = () => asUser(OPS_USER);

export interface SseMessage {
  event: string;
  id?: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Record<string, string>;
  messages: SseMessage[];
  /** Default (event) messages only: the envelopes in arrival order. */
  envelopes(): Array<{ id: string; envelope: EventEnvelope }>;
  waitFor(predicate: (messages: SseMessage[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  pause(): void;
  resume(): void;
  close(): void;
  /** Bytes received so far (a paused stream receives none). */
  bytes(): number;
}

function parseFrames(buffer: string, onMessage: (message: SseMessage) => void): string {
  let rest = buffer;
  for (;;) {
    const end = rest.indexOf('\n\n');
    if (end < 0) return rest;
    const frame = rest.slice(0, end);
    rest = rest.slice(end + 2);
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    let any = false;
    for (const line of frame.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
      else continue;
      any = true;
    }
    if (any && data.length) onMessage({ event, id, data: data.join('\n') });
  }
}

/**
 * GET `path` as an EventSource would (HTTP/1.1, Accept: text/event-stream) on a raw socket. Chunked
 * transfer encoding is undone here; messages accumulate in `messages`.
 */
export function openStream(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const url = new URL(baseUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  const messages: SseMessage[] = [];
  let raw = Buffer.alloc(0);
  let headerDone = false;
  let status = 0;
  const responseHeaders: Record<string, string> = {};
  let chunked = false;
  let body = Buffer.alloc(0);
  let text = '';
  let received = 0;

  const decodeChunks = () => {
    // Consumes complete chunks from `body` into `text`.
    for (;;) {
      const lineEnd = body.indexOf('\r\n');
      if (lineEnd < 0) return;
      const size = parseInt(body.subarray(0, lineEnd).toString(), 16);
      if (Number.isNaN(size)) return;
      if (body.length < lineEnd + 2 + size + 2) return;
      text += body.subarray(lineEnd + 2, lineEnd + 2 + size).toString('utf8');
      body = body.subarray(lineEnd + 2 + size + 2);
      if (size === 0) return;
    }
  };

  return new Promise((resolve, reject) => {
    const stream: SseStream = {
      get status() {
        return status;
      },
      headers: responseHeaders,
      messages,
      envelopes: () =>
        messages
          .filter((m) => m.event === 'message')
          .map((m) => ({ id: m.id ?? '', envelope: JSON.parse(m.data) as EventEnvelope })),
      waitFor: (predicate, what, timeoutMs = 15_000) =>
        waitFor(() => predicate(messages), what, timeoutMs).then(() => undefined),
      pause: () => socket.pause(),
      resume: () => socket.resume(),
      close: () => socket.destroy(),
      bytes: () => received,
    };
    socket.on('error', (err) => (headerDone ? undefined : reject(err)));
    socket.on('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        'Accept: text/event-stream',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ];
      socket.write(lines.join('\r\n'));
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (!headerDone) {
        raw = Buffer.concat([raw, chunk]);
        const end = raw.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = raw.subarray(0, end).toString().split('\r\n');
        status = Number(head[0]?.split(' ')[1]);
        for (const line of head.slice(1)) {
          const colon = line.indexOf(':');
          responseHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        chunked = /chunked/i.test(responseHeaders['transfer-encoding'] ?? '');
        headerDone = true;
        chunk = raw.subarray(end + 4);
        resolve(stream);
      }
      if (chunked) {
        body = Buffer.concat([body, chunk]);
        decodeChunks();
      } else {
        text += chunk.toString('utf8');
      }
      text = parseFrames(text, (message) => messages.push(message));
    });
  });
}

let counter = 0;

/** An envelope of `type` with a unique subject (or the one given). */
export function testEvent(
  type: string,
  opts: { subject?: string; correlationId?: string; data?: unknown; source?: string } = {},
): EventEnvelope {
  counter++;
  return createEnvelope(opts.source ?? 'ops-test', {
    type,
    subject: opts.subject ?? `subject-${Date.now()}-${counter}`,
    correlationId: opts.correlationId,
    data: opts.data ?? { n: counter },
  });
}
