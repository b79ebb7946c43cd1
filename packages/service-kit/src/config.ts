import { z } from 'zod';

/**
 * Variables every service reads. Each service extends this with its own and parses once at boot:
 * a missing or malformed variable stops the process with a message naming it.
 */
/** An on/off variable: `true`/`1` switch it on; unset, empty, `false` or `0` leave it off. */
export const envFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

export const baseConfigSchema = z.object({
  SERVICE_NAME: z.string().min(1),
  /** Loopback unless a container or cluster says otherwise: on a laptop nothing should be reachable from the LAN. */
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL')
    .default('mongodb://127.0.0.1:27017/?replicaSet=rs0'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
  EVENT_BUS: z.enum(['redis', 'kafka']).default('redis'),
  KAFKA_BROKERS: z.string().optional(),
  /** The Kafka client library when EVENT_BUS=kafka: the figures in docs/kafka-clients.md chose the default. */
  KAFKA_CLIENT: z.enum(['kafkajs', 'platformatic']).default('kafkajs'),
  EVENT_STREAM_PREFIX: z.string().default('events:'),
  /**
   * How often the outbox relay looks for entries their committing process did not publish. Events are
   * published at commit; this is the safety net's period.
   */
  OUTBOX_POLL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(24 * 3600_000)
    .default(5000),
  /** Shared secret proving that identity headers were set by the gateway, not by a client. */
  INTERNAL_SECRET: z.string().min(16, 'must be at least 16 characters'),
  /**
   * The bearer token every process's /metrics asks for (Prometheus, the operations console): it reads
   * metrics and nothing else, so it may not be the internal secret. Unset: /metrics answers no one.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) {
    const cfg = result.data as Record<string, unknown>;
    if (cfg.EVENT_BUS === 'kafka' && !cfg.KAFKA_BROKERS) {
      throw new ConfigError('Invalid configuration: KAFKA_BROKERS is required when EVENT_BUS=kafka');
    }
    if (cfg.METRICS_TOKEN !== undefined && cfg.METRICS_TOKEN === cfg.INTERNAL_SECRET) {
      throw new ConfigError(
        'Invalid configuration: METRICS_TOKEN must differ from INTERNAL_SECRET (it reads metrics and nothing else)',
      );
    }
    if (env.NODE_ENV === 'production') refuseDevelopmentValues(cfg);
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(root)';
    const value = issue.path.length ? env[String(issue.path[0])] : undefined;
    return value === undefined ? `${name} is missing` : `${name} is invalid: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/** The prefix of every secret this repository ships (compose's old fallbacks, test stacks). */
export const DEVELOPMENT_ONLY_PREFIX = 'dev-only';

/**
 * In production a value everyone can read in this repository is no secret, the development mail
 * catcher would show every verification link to whoever reaches it, and webhooks allowed to private
 * addresses would let any user's endpoint reach the internal network: each stops the process at boot.
 */
function refuseDevelopmentValues(cfg: Record<string, unknown>): void {
  const known = Object.entries(cfg)
    .filter(([, value]) => typeof value === 'string' && value.startsWith(DEVELOPMENT_ONLY_PREFIX))
    .map(([name]) => name);
  if (known.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${known.join(', ')} holds a development-only value; set a real secret in production`,
    );
  }
  if (cfg.MAIL_CATCHER_ENABLED === true) {
    throw new ConfigError(
      'Invalid configuration: MAIL_CATCHER_ENABLED must be off in production (the catcher shows every email, verification links included)',
    );
  }
  if (cfg.WEBHOOKS_ALLOW_PRIVATE_TARGETS === true) {
    throw new ConfigError(
      'Invalid configuration: WEBHOOKS_ALLOW_PRIVATE_TARGETS must be off in production (webhooks could then reach the internal network)',
    );
  }
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);
}

/**
 * What a production-mode process should shout about at start-up without refusing to run. PUBLIC_URL
 * left at a loopback address (the default, http://localhost:8080) is allowed, since `docker compose up`
 * runs the production images on this machine at that address, but on a real deployment every email's
 * links (verification, password reset, shared deals) would point at the reader's own computer.
 */
export function productionConfigWarnings(
  cfg: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (env.NODE_ENV !== 'production' || typeof cfg.PUBLIC_URL !== 'string') return [];
  let hostname: string;
  try {
    hostname = new URL(cfg.PUBLIC_URL).hostname;
  } catch {
    return [];
  }
  if (!isLoopbackHost(hostname)) return [];
  return [
    `WARNING: PUBLIC_URL is ${cfg.PUBLIC_URL}${env.PUBLIC_URL ? '' : ' (the default: PUBLIC_URL is not set)'}, ` +
      'an address only this machine can open. Every email links there (verification, password reset, ' +
      'shared deals): set PUBLIC_URL to the address people reach the site at (docs/deploy.md).',
  ];
}

/** For entry points: parse, or print the problem and exit non-zero; production warnings go to stderr. */
export function loadConfigOrExit<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  let config: z.infer<S>;
  try {
    config = loadConfig(schema, env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(78);
  }
  for (const warning of productionConfigWarnings(config as Record<string, unknown>, env))
    process.stderr.write(`${warning}\n`);
  return config;
}
