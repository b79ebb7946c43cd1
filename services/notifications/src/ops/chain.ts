// The correlation view: every event of one correlation id in publish order, and for each what every
// consumer group did with it, read from the broker's own bookkeeping (no service database is read):
// Redis: a group's last-delivered id and pending list; Kafka: a group's committed offsets. Dead
// letters come from the collector's collection; email jobs from the `email` queue (job id = event id).
import type { ConsumerOutcome, OpsChainEvent, OpsChainResponse } from '@lsp/contracts';
import type { Redis } from 'ioredis';
import type { DeadLetters } from './dead-letters';
import { type FeedEntry, positionTime } from './feed';
import { KAFKA_TAP_GROUP_PREFIX, type KafkaTap, parseKafkaPosition } from './kafka-tap';
import type { OpsQueues } from './queues';
import { compareIds } from './redis-tap';
import type { EventTap, TapRecord } from './tap';
import { displayedEnvelope } from './redact';

/** How far back each stream is searched when the ring does not hold the whole chain (Redis). */
const HISTORY_DEPTH = 2000;

export interface OutcomeReader {
  /** What each consumer group did with the event at `position`. */
  outcomes(position: string, eventTime: string): Promise<ConsumerOutcome[]>;
}

/** Redis ids are `<ms>-<seq>`; the position is `<id>@<type>`. */
function splitRedisPosition(position: string): { id: string; type: string } | null {
  const at = position.indexOf('@');
  if (at < 0) return null;
  return { id: position.slice(0, at), type: position.slice(at + 1) };
}

function flatToRecord(flat: unknown[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) record[String(flat[i])] = flat[i + 1];
  return record;
}

export class RedisOutcomeReader implements OutcomeReader {
  /** Stream → its groups, read once per chain request. */
  private readonly groups = new Map<string, Promise<Array<{ name: string; lastDelivered: string }>>>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private groupsOf(key: string) {
    let found = this.groups.get(key);
    if (!found) {
      found = (this.redis.xinfo('GROUPS', key) as Promise<unknown[][]>)
        .then((rows) =>
          rows.map((row) => {
            const r = flatToRecord(row);
            return { name: String(r.name), lastDelivered: String(r['last-delivered-id'] ?? '0-0') };
          }),
        )
        .catch(() => []);
      this.groups.set(key, found);
    }
    return found;
  }

  async outcomes(position: string, eventTime: string): Promise<ConsumerOutcome[]> {
    const parsed = splitRedisPosition(position);
    if (!parsed) return [];
    const key = `${this.prefix}${parsed.type}`;
    const out: ConsumerOutcome[] = [];
    for (const group of await this.groupsOf(key)) {
      const pending = (await this.redis
        .xpending(key, group.name, parsed.id, parsed.id, 1)
        .catch(() => [])) as Array<[string, string, number, number]>;
      const entry = pending.find(([id]) => id === parsed.id);
      if (entry) {
        out.push({
          consumer: group.name,
          status: 'failed',
          attempts: entry[3],
          at: new Date().toISOString(),
        });
      } else if (compareIds(parsed.id, group.lastDelivered) <= 0) {
        out.push({ consumer: group.name, status: 'processed', attempts: 1, at: eventTime });
      }
      // Not yet delivered to this group: no outcome yet.
    }
    return out;
  }
}

export class KafkaOutcomeReader implements OutcomeReader {
  private committed:
    | Promise<Map<string, Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>>>
    | undefined;

  constructor(private readonly tap: KafkaTap) {}

  private allCommitted() {
    this.committed ??= (async () => {
      const admin = await this.tap.admin();
      const { groups } = await admin.listGroups();
      const result = new Map<
        string,
        Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>
      >();
      for (const { groupId } of groups) {
        if (groupId.startsWith(KAFKA_TAP_GROUP_PREFIX)) continue;
        result.set(groupId, await admin.fetchOffsets({ groupId }).catch(() => []));
      }
      return result;
    })().catch(() => new Map());
    return this.committed;
  }

  async outcomes(position: string, eventTime: string): Promise<ConsumerOutcome[]> {
    const parsed = parseKafkaPosition(position);
    if (!parsed) return [];
    const out: ConsumerOutcome[] = [];
    for (const [groupId, topics] of await this.allCommitted()) {
      const committed = topics
        .find((t) => t.topic === parsed.topic)
        ?.partitions.find((p) => p.partition === parsed.partition)?.offset;
      if (committed === undefined || committed === '-1') continue;
      // The committed offset is the next one the group will read.
      if (BigInt(committed) > parsed.offset)
        out.push({ consumer: groupId, status: 'processed', attempts: 1, at: eventTime });
    }
    return out;
  }
}

export async function correlationChain(opts: {
  correlationId: string;
  tap: EventTap;
  outcomes: OutcomeReader;
  deadLetters: DeadLetters;
  queues: OpsQueues;
}): Promise<OpsChainResponse> {
  const { correlationId, tap } = opts;
  const byPosition = new Map<string, { position: string; envelope: FeedEntry['envelope']; order: number }>();
  for (const entry of tap.ring.byCorrelation(correlationId))
    byPosition.set(entry.position, { position: entry.position, envelope: entry.envelope, order: entry.seq });
  if (tap.source.findCorrelation) {
    const history: TapRecord[] = await tap.source
      .findCorrelation(correlationId, HISTORY_DEPTH)
      .catch(() => []);
    for (const record of history)
      if (!byPosition.has(record.position))
        byPosition.set(record.position, {
          position: record.position,
          envelope: displayedEnvelope(record.envelope),
          order: 0,
        });
  }
  const events = [...byPosition.values()].sort(
    (a, b) =>
      (positionTime(a.position) ?? Date.parse(a.envelope.time)) -
        (positionTime(b.position) ?? Date.parse(b.envelope.time)) ||
      a.envelope.time.localeCompare(b.envelope.time) ||
      a.order - b.order,
  );
  const chain: OpsChainEvent[] = [];
  for (const { position, envelope } of events) {
    const [outcomes, deadLetters, jobs] = await Promise.all([
      opts.outcomes.outcomes(position, envelope.time).catch(() => []),
      opts.deadLetters.forEvent(envelope.id).catch(() => []),
      opts.queues.jobsForEvent(envelope.id).catch(() => []),
    ]);
    // A group that gave up on the event shows as dead-lettered, whatever its offsets say. A replayed
    // dead letter is a new delivery of the same envelope, so it only marks deliveries before the replay.
    const consumers = new Map(outcomes.map((o) => [o.consumer, o]));
    for (const dead of deadLetters) {
      if (dead.topic !== envelope.type) continue;
      const replayedBefore = dead.replayedAt && (positionTime(position) ?? 0) > dead.replayedAt.getTime();
      if (replayedBefore) continue;
      consumers.set(dead.consumerGroup, {
        consumer: dead.consumerGroup,
        status: 'dead-lettered',
        attempts: dead.attempts,
        error: dead.error,
        at: dead.failedAt,
      });
    }
    chain.push({
      position,
      envelope,
      consumers: [...consumers.values()].sort((a, b) => a.consumer.localeCompare(b.consumer)),
      jobs,
    });
  }
  return { correlationId, events: chain };
}
