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
 * In production a value everyone can read in this repository is no secret, and the development mail
 * catcher would show every verification link to whoever reaches it: both stop the process at boot.
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
}

/** For entry points: parse, or print the problem and exit non-zero. */
export function loadConfigOrExit<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  try {
    return loadConfig(schema, env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(78);
  }
}
