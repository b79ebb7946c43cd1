// Dead letters: every `<type>.dlq` topic is consumed (group `notifications-ops`) into one collection,
// where each keeps its status. Replay publishes the original envelope, unchanged (same event id), on
// its original topic: consumers that already handled it skip it by their processed-event marker, and
// the one that failed handles it once. A replay that fails again comes back as a new dead letter.
import { createHash } from 'node:crypto';
import {
  EVENT_TYPES,
  type EventEnvelope,
  OPS_MESSAGES,
  type DeadLetterStatus,
  type OpsDeadLetter,
  type OpsDeadLettersResponse,
  deadLetterTopic,
} from '@lsp/contracts';
import {
  type DeliveryContext,
  type EventBus,
  conflict,
  notFound,
  serviceUnavailable,
} from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import { displayedEnvelope } from './redact';

/** The consumer group that collects dead letters (one per deployment, like a service's). */
export const DEAD_LETTER_GROUP = 'notifications-ops';
const DLQ_SUFFIX = '.dlq';

export interface DeadLetterDoc {
  _id: string;
  topic: string;
  eventId: string;
  envelope: EventEnvelope;
  consumerGroup: string;
  error: string;
  attempts: number;
  failedAt: string;
  receivedAt: Date;
  status: DeadLetterStatus;
  replays: number;
  replayedAt?: Date;
  replayedBy?: string;
  discardedAt?: Date;
  discardedBy?: string;
  discardReason?: string;
}

export function deadLetterId(topic: string, group: string, eventId: string, failedAt: string): string {
  return createHash('sha256')
    .update(`${topic}\n${group}\n${eventId}\n${failedAt}`)
    .digest('hex')
    .slice(0, 24);
}

export function toOpsDeadLetter(doc: DeadLetterDoc): OpsDeadLetter {
  return {
    id: doc._id,
    topic: doc.topic,
    envelope: displayedEnvelope(doc.envelope),
    consumerGroup: doc.consumerGroup,
    error: doc.error,
    attempts: doc.attempts,
    failedAt: doc.failedAt,
    status: doc.status,
    replays: doc.replays,
    ...(doc.replayedAt ? { replayedAt: doc.replayedAt.toISOString() } : {}),
    ...(doc.replayedBy ? { replayedBy: doc.replayedBy } : {}),
    ...(doc.discardedAt ? { discardedAt: doc.discardedAt.toISOString() } : {}),
    ...(doc.discardedBy ? { discardedBy: doc.discardedBy } : {}),
    ...(doc.discardReason ? { discardReason: doc.discardReason } : {}),
  };
}

export class DeadLetters {
  private constructor(
    private readonly mongo: Connection,
    private readonly bus: EventBus,
  ) {}

  static async open(mongo: Connection, bus: EventBus): Promise<DeadLetters> {
    const store = new DeadLetters(mongo, bus);
    await store.collection().createIndex({ status: 1, topic: 1, failedAt: -1 }, { name: 'status_topic' });
    // The console lists the newest letters of a status, or of every status, and replays a status's
    // oldest first: these keys are that order (ties by id), so a page reads its own letters, never
    // every letter of the status to sort them.
    await store.collection().createIndex({ status: 1, failedAt: -1, _id: 1 }, { name: 'status_newest' });
    await store.collection().createIndex({ failedAt: -1, _id: 1 }, { name: 'newest' });
    await store.collection().createIndex({ eventId: 1 }, { name: 'event' });
    return store;
  }

  collection() {
    return this.mongo.collection<DeadLetterDoc>('ops_dead_letters');
  }

  /** Subscribes the collector to the dead-letter topic of every event type (before `bus.start()`). */
  subscribe(types: readonly string[] = EVENT_TYPES): void {
    this.bus.subscribe({
      consumerGroup: DEAD_LETTER_GROUP,
      types: types.map(deadLetterTopic),
      handler: (envelope, context) => this.record(envelope, context),
    });
  }

  /** Keeps one dead letter; a redelivery of the same one changes nothing. */
  async record(envelope: EventEnvelope, context: DeliveryContext): Promise<void> {
    const info = context.deadLetter;
    if (!info) return; // not a dead letter (someone published on a .dlq topic by hand)
    const topic = envelope.type.endsWith(DLQ_SUFFIX)
      ? envelope.type.slice(0, -DLQ_SUFFIX.length)
      : envelope.type;
    const _id = deadLetterId(topic, info.consumerGroup, envelope.id, info.failedAt);
    await this.collection().updateOne(
      { _id },
      {
        $setOnInsert: {
          _id,
          topic,
          eventId: envelope.id,
          envelope,
          consumerGroup: info.consumerGroup,
          error: info.error,
          attempts: info.attempts,
          failedAt: info.failedAt,
          receivedAt: new Date(),
          status: 'open' as const,
          replays: 0,
        },
      },
      { upsert: true },
    );
  }

  async list(query: {
    topic?: string;
    status?: DeadLetterStatus;
    limit: number;
  }): Promise<OpsDeadLettersResponse> {
    const filter: Record<string, unknown> = {};
    if (query.topic) filter.topic = query.topic;
    if (query.status) filter.status = query.status;
    const [docs, counts] = await Promise.all([
      this.collection().find(filter).sort({ failedAt: -1, _id: 1 }).limit(query.limit).toArray(),
      this.collection()
        .aggregate<{ _id: { topic: string; status: DeadLetterStatus }; n: number }>([
          { $group: { _id: { topic: '$topic', status: '$status' }, n: { $sum: 1 } } },
        ])
        .toArray(),
    ]);
    const topics = new Map<string, { topic: string; open: number; replayed: number; discarded: number }>();
    for (const { _id, n } of counts) {
      const row = topics.get(_id.topic) ?? { topic: _id.topic, open: 0, replayed: 0, discarded: 0 };
      row[_id.status] += n;
      topics.set(_id.topic, row);
    }
    return {
      topics: [...topics.values()].sort((a, b) => a.topic.localeCompare(b.topic)),
      items: docs.map(toOpsDeadLetter),
    };
  }

  async get(id: string): Promise<DeadLetterDoc | null> {
    return this.collection().findOne({ _id: id });
  }

  /** Dead letters of an event, for the correlation view. */
  async forEvent(eventId: string): Promise<DeadLetterDoc[]> {
    return this.collection().find({ eventId }).toArray();
  }

  /** Republishes one open dead letter; 404 unknown, 409 already replayed or discarded. */
  async replay(id: string, by: string): Promise<OpsDeadLetter> {
    const claimed = await this.collection().findOneAndUpdate(
      { _id: id, status: 'open' },
      { $set: { status: 'replayed', replayedAt: new Date(), replayedBy: by }, $inc: { replays: 1 } },
      { returnDocument: 'after' },
    );
    if (!claimed) {
      if (await this.get(id)) throw conflict(OPS_MESSAGES.deadLetterClosed);
      throw notFound(OPS_MESSAGES.deadLetterNotFound);
    }
    try {
      await this.bus.publish(claimed.envelope);
    } catch (err) {
      // Not published: it stays open, to be replayed again.
      await this.collection().updateOne(
        { _id: id },
        { $set: { status: 'open' }, $unset: { replayedAt: '', replayedBy: '' }, $inc: { replays: -1 } },
      );
      throw Object.assign(serviceUnavailable('The event bus is unavailable; the dead letter is still open'), {
        cause: err,
      });
    }
    return toOpsDeadLetter(claimed);
  }

  /** Replays every open dead letter (of one topic), oldest first. */
  async replayAll(topic: string | undefined, by: string): Promise<{ replayed: number; ids: string[] }> {
    const open = await this.collection()
      .find({ status: 'open', ...(topic ? { topic } : {}) }, { projection: { _id: 1 } })
      .sort({ failedAt: 1 })
      .toArray();
    const ids: string[] = [];
    for (const { _id } of open) {
      try {
        await this.replay(_id, by);
        ids.push(_id);
      } catch (err) {
        // Replayed by someone else meanwhile: not ours to count. Anything else stops the run.
        if ((err as { statusCode?: number }).statusCode === 409) continue;
        throw err;
      }
    }
    return { replayed: ids.length, ids };
  }

  async discard(id: string, reason: string, by: string): Promise<OpsDeadLetter> {
    const discarded = await this.collection().findOneAndUpdate(
      { _id: id, status: 'open' },
      { $set: { status: 'discarded', discardedAt: new Date(), discardedBy: by, discardReason: reason } },
      { returnDocument: 'after' },
    );
    if (!discarded) {
      if (await this.get(id)) throw conflict(OPS_MESSAGES.deadLetterClosed);
      throw notFound(OPS_MESSAGES.deadLetterNotFound);
    }
    return toOpsDeadLetter(discarded);
  }
}
