import pino, { type Logger } from 'pino';

export type { Logger };

/** Fields that must never reach a log line, wherever they appear. */
const REDACT = [
  'password',
  'confirmPassword',
  '*.password',
  '*.confirmPassword',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-internal-secret"]',
  'res.headers["set-cookie"]',
  'token',
  '*.token',
];

/** Paths whose next segment is a capability by itself (a shared deal's token opens the deal). */
const SECRET_SEGMENT_AFTER = ['/api/shared-deal/', '/shared-deal/'];
const MAX_LOGGED_URL = 512;

/**
 * A URL as it may be logged: query values dropped (verification tokens, signed-link emails and
 * signatures travel there), parameter names kept for debugging, capability segments masked.
 */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const prefix of SECRET_SEGMENT_AFTER) {
    if (path.startsWith(prefix) && path.length > prefix.length) {
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      path = `${prefix}[redacted]${slash === -1 ? '' : rest.slice(slash)}`;
    }
  }
  if (queryAt !== -1) {
    const names = [...new Set(new URLSearchParams(url.slice(queryAt + 1)).keys())];
    path += `?${names.map((name) => `${name}=[redacted]`).join('&')}`;
  }
  return path.length > MAX_LOGGED_URL ? `${path.slice(0, MAX_LOGGED_URL)}…` : path;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Replaces fastify's request serializer, which logs the URL whole. */
function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? loggableUrl(req.url) : undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** `destination` defaults to stdout; tests pass a stream to read what would be logged. */
export function createLogger(service: string, level = 'info', destination?: pino.DestinationStream): Logger {
  const options = {
    name: service,
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    base: { service },
  };
  return destination ? pino(options, destination) : pino(options);
}
