import { z } from 'zod';
import { OPS_ROLE } from '../common/constants';
import { eventEnvelopeSchema } from '../events/envelope';

/**
 * The operations console's HTTP contract. Every `/api/ops/*` route answers 401 without a
 * session and 403 without the `ops` role. Served by notifications behind the gateway.
 */

export const ROLES = [OPS_ROLE] as const;
export type Role = (typeof ROLES)[number];

export const OPS_MESSAGES = {
  authRequired: 'Authentication required',
  forbidden: 'Operations access only',
  correlationIdRequired: 'correlationId is required',
  deadLetterNotFound: 'Dead letter not found',
  deadLetterClosed: 'This dead letter was already replayed or discarded',
  discardReasonRequired: 'A reason is required to discard a dead letter',
  queueNotFound: 'Queue not found',
  jobNotFound: 'Job not found',
  jobNotFailed: 'Only a failed job can be retried',
} as const;

/** How many matching events the stream replays on a fresh connect (no Last-Event-ID). */
export const OPS_FEED_REPLAY = 100;
/** Messages one viewer may have waiting; beyond this, events for that viewer are dropped and counted. */
export const OPS_FEED_CLIENT_BUFFER = 1000;
/** Width of one bucket of the per-type rate chart, and how many buckets are kept (10 minutes). */
export const OPS_RATE_BUCKET_SECONDS = 10;
export const OPS_RATE_BUCKETS = 60;

export const OPS_QUEUES = ['email', 'pdf'] as const;
export type OpsQueueName = (typeof OPS_QUEUES)[number];

// ---------------------------------------------------------------- live feed

/**
 * GET /api/ops/events/stream query. `type` may repeat; each is a prefix (`dip.` matches `dip.created`);
 * an event passes when it matches any type, and the subject and correlationId exactly when given.
 * `lastEventId` is the query twin of the `Last-Event-ID` header (the header wins).
 */
export const opsFeedQuerySchema = z.object({
  type: z
    .union([z.string().max(200), z.array(z.string().max(200)).max(50)])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).filter((t) => t !== ''))),
  subject: z.string().min(1).max(200).optional(),
  correlationId: z.string().min(1).max(200).optional(),
  lastEventId: z.string().min(1).max(100).optional(),
});
export type OpsFeedQuery = z.infer<typeof opsFeedQuerySchema>;

/**
 * SSE messages of GET /api/ops/events/stream:
 * - default message (no `event:` line): `id:` the feed position, `data:` one envelope exactly as published.
 * - `event: dropped`: `data:` {@link OpsFeedDropped}; no `id:` (the position is not moved).
 * - `event: stats`: `data:` {@link OpsFeedClientStats}, every 5 s; no `id:`.
 * - `: keep-alive` comment lines every 15 s.
 */
export const opsFeedEnvelopeSchema = eventEnvelopeSchema;

export const opsFeedDroppedSchema = z.object({
  /** Events dropped for this viewer since the last `dropped` message. */
  dropped: z.number().int().nonnegative(),
  /** Events dropped for this viewer since it connected. */
  totalDropped: z.number().int().nonnegative(),
  /** The feed position of the last event dropped (a reconnect with it as Last-Event-ID skips them). */
  lastDroppedId: z.string().optional(),
});
export type OpsFeedDropped = z.infer<typeof opsFeedDroppedSchema>;

export const opsFeedClientStatsSchema = z.object({
  viewerId: z.string(),
  delivered: z.number().int().nonnegative(),
  dropped: z.number().int().nonnegative(),
  buffered: z.number().int().nonnegative(),
  lastEventId: z.string().nullable(),
});
export type OpsFeedClientStats = z.infer<typeof opsFeedClientStatsSchema>;

/** One event with its feed position, as the JSON routes return it. */
export const opsFeedEntrySchema = z.object({
  position: z.string(),
  envelope: eventEnvelopeSchema,
});
export type OpsFeedEntry = z.infer<typeof opsFeedEntrySchema>;

/** GET /api/ops/feed/stats: viewers of this process, drops, and events per type per bucket. */
export const opsFeedStatsSchema = z.object({
  instance: z.string(),
  viewers: z.array(
    opsFeedClientStatsSchema.extend({
      connectedAt: z.string(),
      filters: z.object({
        type: z.array(z.string()),
        subject: z.string().optional(),
        correlationId: z.string().optional(),
      }),
    }),
  ),
  /** Drops over all viewers since this process started. */
  totalDropped: z.number().int().nonnegative(),
  rate: z.object({
    bucketSeconds: z.number().int().positive(),
    /** Oldest first; `at` is the bucket's start; `counts` events per type in it. */
    buckets: z.array(z.object({ at: z.string(), counts: z.record(z.string(), z.number()) })),
  }),
});
export type OpsFeedStats = z.infer<typeof opsFeedStatsSchema>;

// ---------------------------------------------------------------- correlation chain

export const opsChainQuerySchema = z.object({
  correlationId: z.string({ error: OPS_MESSAGES.correlationIdRequired }).min(1).max(200),
});

export const CONSUMER_OUTCOMES = ['processed', 'failed', 'dead-lettered'] as const;
export type ConsumerOutcomeStatus = (typeof CONSUMER_OUTCOMES)[number];

/** What one consumer group did with one event (last attempt wins). */
export const consumerOutcomeSchema = z.object({
  consumer: z.string(),
  status: z.enum(CONSUMER_OUTCOMES),
  attempts: z.number().int().nonnegative(),
  error: z.string().optional(),
  at: z.string(),
  durationMs: z.number().nonnegative().optional(),
});
export type ConsumerOutcome = z.infer<typeof consumerOutcomeSchema>;

/** A BullMQ job an event led to (the email job's id is the event id). */
export const opsChainJobSchema = z.object({
  queue: z.string(),
  jobId: z.string(),
  state: z.string(),
  attemptsMade: z.number().int().nonnegative(),
  failedReason: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type OpsChainJob = z.infer<typeof opsChainJobSchema>;

export const opsChainEventSchema = z.object({
  position: z.string(),
  envelope: eventEnvelopeSchema,
  consumers: z.array(consumerOutcomeSchema),
  jobs: z.array(opsChainJobSchema),
});
export type OpsChainEvent = z.infer<typeof opsChainEventSchema>;

/** GET /api/ops/events?correlationId=…: the chain in publish order. */
export const opsChainResponseSchema = z.object({
  correlationId: z.string(),
  events: z.array(opsChainEventSchema),
});
export type OpsChainResponse = z.infer<typeof opsChainResponseSchema>;

// ---------------------------------------------------------------- dead letters

export const DEAD_LETTER_STATUSES = ['open', 'replayed', 'discarded'] as const;
export type DeadLetterStatus = (typeof DEAD_LETTER_STATUSES)[number];

export const opsDeadLetterSchema = z.object({
  id: z.string(),
  /** The original topic (= event type); the dead letter itself travelled on `<topic>.dlq`. */
  topic: z.string(),
  envelope: eventEnvelopeSchema,
  consumerGroup: z.string(),
  error: z.string(),
  attempts: z.number().int().nonnegative(),
  failedAt: z.string(),
  status: z.enum(DEAD_LETTER_STATUSES),
  replayedAt: z.string().optional(),
  replayedBy: z.string().optional(),
  /** How many times it was replayed (a replay that fails again comes back as a new dead letter). */
  replays: z.number().int().nonnegative(),
  discardedAt: z.string().optional(),
  discardedBy: z.string().optional(),
  discardReason: z.string().optional(),
});
export type OpsDeadLetter = z.infer<typeof opsDeadLetterSchema>;

export const opsDeadLettersQuerySchema = z.object({
  topic: z.string().min(1).max(200).optional(),
  status: z.enum(DEAD_LETTER_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** GET /api/ops/dead-letters */
export const opsDeadLettersResponseSchema = z.object({
  /** Per topic, dead letters by status (topics with none are left out). */
  topics: z.array(
    z.object({
      topic: z.string(),
      open: z.number().int().nonnegative(),
      replayed: z.number().int().nonnegative(),
      discarded: z.number().int().nonnegative(),
    }),
  ),
  items: z.array(opsDeadLetterSchema),
});
export type OpsDeadLettersResponse = z.infer<typeof opsDeadLettersResponseSchema>;

/** POST /api/ops/dead-letters/replay: every open dead letter, or those of one topic. */
export const opsReplayAllBodySchema = z.object({ topic: z.string().min(1).max(200).optional() }).strip();
export const opsReplayResponseSchema = z.object({
  replayed: z.number().int().nonnegative(),
  ids: z.array(z.string()),
});
export type OpsReplayResponse = z.infer<typeof opsReplayResponseSchema>;

/** POST /api/ops/dead-letters/:id/discard */
export const opsDiscardBodySchema = z
  .object({
    reason: z
      .string({ error: OPS_MESSAGES.discardReasonRequired })
      .trim()
      .min(1, OPS_MESSAGES.discardReasonRequired)
      .max(1000),
  })
  .strip();

// ---------------------------------------------------------------- queues

export const opsQueueCountsSchema = z.object({
  waiting: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  delayed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  completed: z.number().int().nonnegative(),
});
export type OpsQueueCounts = z.infer<typeof opsQueueCountsSchema>;

export const opsFailedJobSchema = z.object({
  id: z.string(),
  name: z.string(),
  failedReason: z.string(),
  attemptsMade: z.number().int().nonnegative(),
  createdAt: z.string(),
  failedAt: z.string().optional(),
  /** The job's data (for email: the rendered message's recipient and subject, never a secret). */
  data: z.unknown(),
});
export type OpsFailedJob = z.infer<typeof opsFailedJobSchema>;

export const opsQueueSchema = z.object({
  name: z.enum(OPS_QUEUES),
  counts: opsQueueCountsSchema,
  /** Newest first, at most 50. */
  failed: z.array(opsFailedJobSchema),
});
export type OpsQueue = z.infer<typeof opsQueueSchema>;

/** GET /api/ops/queues */
export const opsQueuesResponseSchema = z.object({ queues: z.array(opsQueueSchema) });
export type OpsQueuesResponse = z.infer<typeof opsQueuesResponseSchema>;

/** POST /api/ops/queues/:queue/jobs/:jobId/retry */
export const opsRetryJobResponseSchema = z.object({
  ok: z.literal(true),
  queue: z.string(),
  jobId: z.string(),
});

// ---------------------------------------------------------------- health grid

export const opsProcessHealthSchema = z.object({
  /** e.g. `gateway`, `identity`, `notifications`, `email-worker`, `pdf-worker`. */
  name: z.string(),
  up: z.boolean(),
  /** `/health`'s status, or `unreachable`. */
  status: z.enum(['ok', 'degraded', 'unreachable']),
  version: z.string().nullable(),
  /** Dependency checks as `/health` reports them. */
  checks: z.record(z.string(), z.object({ status: z.string(), error: z.string().optional() })),
  /** p99 HTTP duration over the last minute in ms (null: no requests or too few scrapes yet). */
  p99Ms: z.number().nullable(),
  /** 5xx answers / all answers over the last minute, 0..1 (null: no requests). */
  errorRate: z.number().nullable(),
  requestsLastMinute: z.number().nonnegative(),
  /** Outbox entries not yet published (null when the process has no outbox). */
  outboxBacklog: z.number().nullable(),
  /** Events handled / failed / dead-lettered by this process over the last minute. */
  eventsConsumedLastMinute: z.number().nonnegative(),
  eventsFailedLastMinute: z.number().nonnegative(),
  checkedAt: z.string(),
  error: z.string().optional(),
});
export type OpsProcessHealth = z.infer<typeof opsProcessHealthSchema>;

/** Per consumer group and topic, entries not yet acknowledged (Redis: XINFO lag; Kafka: offset lag). */
export const opsConsumerLagSchema = z.object({
  consumerGroup: z.string(),
  topic: z.string(),
  lag: z.number().nullable(),
  pending: z.number().nullable(),
});
export type OpsConsumerLag = z.infer<typeof opsConsumerLagSchema>;

/**
 * Per event type and consumer group, over the last minute: from an event's commit to the group having
 * handled it (p50, p99). Events are published at commit, so this stays in milliseconds; seconds mean
 * something is waiting for the outbox relay's poll or a consumer is behind.
 */
export const opsEventPropagationSchema = z.object({
  type: z.string(),
  consumerGroup: z.string(),
  handledLastMinute: z.number().nonnegative(),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
});
export type OpsEventPropagation = z.infer<typeof opsEventPropagationSchema>;

/** GET /api/ops/health */
export const opsHealthResponseSchema = z.object({
  checkedAt: z.string(),
  eventBus: z.enum(['redis', 'kafka']),
  processes: z.array(opsProcessHealthSchema),
  consumerLag: z.array(opsConsumerLagSchema),
  propagation: z.array(opsEventPropagationSchema),
});
export type OpsHealthResponse = z.infer<typeof opsHealthResponseSchema>;

// ---------------------------------------------------------------- roles

/** OPS_EMAILS (comma-separated) as a set of lower-cased addresses. */
export function parseOpsEmails(text: string | undefined): Set<string> {
  return new Set(
    (text ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The roles a session is given at sign-in: `ops` only for a verified account whose email is listed. */
export function rolesFor(
  account: { email: string; verified: boolean },
  opsEmails: ReadonlySet<string>,
): Role[] {
  return account.verified && opsEmails.has(account.email.trim().toLowerCase()) ? [OPS_ROLE] : [];
}
