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

export function createLogger(service: string, level = 'info'): Logger {
  return pino({ name: service, level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service } });
}
