/**
 * After the chaos: what was acknowledged against what the databases hold. Each acknowledged request
 * must be stored exactly once; each outbox event published and handled by every consumer of its type;
 * each verification and share email sent exactly once (a duplicate sent while the email worker was
 * being killed is the documented SMTP window: counted apart); nothing left pending.
 */
import { type EventEnvelope, SHARING_EVENT_TYPES } from '@lsp/contracts';
import { Queue } from 'bullmq';
import type { MongoClient } from 'mongodb';
import { sharingEmailJobFor } from '../../services/notifications/src/events/consumed';
import type { KillRecord } from './run';
import type { Workload } from './workload';

export interface Tally {
  acknowledged: number;
  lost: number;
  duplicated: number;
  smtpWindowDuplicates: number;
  pending: number;
  problems: string[];
}

const SEARCH_RUN_COLLECTIONS = {
  development: 'development_searches',
  bridging: 'bridging_searches',
  commercial: 'commercial_searches',
} as const;
const SERVICE_DATABASES = ['identity', 'search', 'dip', 'sharing', 'notifications'];
const QUEUES = ['email', 'pdf'];
/** A duplicate email sent this close to a kill of the email worker is the SMTP window. */
const SMTP_WINDOW_MS = 15000;
const DRAIN_TIMEOUT_MS = 90000;

/**
 * Consumers that act on only some events of a type and leave no marker for the others, with the rule
 * they go by (their own code, where it can be shared): an event passed over by its rule is not one the
 * consumer failed to handle. notifications emails a share.created only when it names a recipient (an
 * open link has no one to email: sharing makes one as the copy-link fallback when share.created could
 * not be handed on to the bus at once, which with Kafka happens while the broker is down).
 */
const ACTS_ON: Record<string, (envelope: EventEnvelope) => boolean> = {
  'notifications:email': (envelope) =>
    !SHARING_EMAIL_TYPES.has(envelope.type) || sharingEmailJobFor(envelope) !== null,
  // An application made without a saved search has no search to mark.
  'search:applications': (envelope) => Boolean((envelope.data as { searchId?: string | null }).searchId),
};
const SHARING_EMAIL_TYPES = new Set<string>([
  SHARING_EVENT_TYPES.shareCreated,
  SHARING_EVENT_TYPES.dealShared,
  SHARING_EVENT_TYPES.referralCreated,
]);

/** Whether `consumer` (a processed-event marker's consumer) is meant to handle this published event. */
export function consumerActsOn(consumer: string, envelope: EventEnvelope): boolean {
  return ACTS_ON[consumer]?.(envelope) ?? true;
}

interface Backlog {
  outbox: number;
  queued: number;
  unhandled: number;
  /** Each published event a consumer of its type has not handled: which, and by whom. */
  unhandledEvents: Array<{ eventId: string; type: string; consumer: string; publishedAt: Date | null }>;
}

export async function reconcile(opts: {
  mongo: MongoClient;
  redisUrl: string;
  workload: Workload;
  kills: KillRecord[];
  mailUrl: string;
}): Promise<Tally> {
  const { mongo, workload, kills } = opts;
  const ack = workload.acknowledged;
  const tally: Tally = {
    acknowledged: 0,
    lost: 0,
    duplicated: 0,
    smtpWindowDuplicates: 0,
    pending: 0,
    problems: [],
  };
  const queues = QUEUES.map((name) => new Queue(name, { connection: { url: opts.redisUrl } }));
  try {
    // Quiet first: every outbox published, every queue empty, every event handled (or time runs out).
    let backlog = await measureBacklog(mongo, queues);
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (backlog.outbox + backlog.queued + backlog.unhandled > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      backlog = await measureBacklog(mongo, queues);
    }
    tally.pending = backlog.outbox + backlog.queued;
    if (backlog.outbox) tally.problems.push(`${backlog.outbox} outbox events never published`);
    if (backlog.queued) tally.problems.push(`${backlog.queued} jobs still waiting, active or delayed`);
    if (backlog.unhandled) {
      tally.lost += backlog.unhandled;
      tally.problems.push(`${backlog.unhandled} published events never handled by a consumer of their type`);
      // Which, and whether the bus gave up on it (dead-lettered after its retries) or never delivered it.
      const deadLetters = mongo
        .db('notifications')
        .collection<{ eventId: string; consumerGroup: string; error: string }>('ops_dead_letters');
      for (const event of backlog.unhandledEvents) {
        const dead = await deadLetters.findOne({ eventId: event.eventId });
        tally.problems.push(
          `${event.type} ${event.eventId} (published ${event.publishedAt?.toISOString()}) not handled by ${event.consumer}` +
            (dead ? `: dead-lettered by ${dead.consumerGroup} (${dead.error})` : ''),
        );
      }
    }
    for (const queue of queues) {
      const failed = (await queue.getJobCounts('failed')).failed ?? 0;
      if (failed) {
        tally.lost += failed;
        tally.problems.push(`${failed} ${queue.name} jobs failed for good`);
      }
    }

    /** Counts one acknowledged thing: stored once is right, none is lost, more is duplicated. */
    const expectOnce = (what: string, count: number) => {
      tally.acknowledged += 1;
      if (count === 1) return;
      if (count === 0) tally.lost += 1;
      else tally.duplicated += 1;
      tally.problems.push(`${what}: stored ${count} times`);
    };
    const db = (name: string) => mongo.db(name);

    for (const run of ack.searchRuns)
      expectOnce(
        `search run ${run.id}`,
        await db('search')
          .collection(SEARCH_RUN_COLLECTIONS[run.loanType])
          .countDocuments({ _id: run.id as never }),
      );
    for (const email of ack.registrations)
      expectOnce(`user ${email}`, await db('identity').collection('users').countDocuments({ email }));
    for (const email of ack.verifications)
      expectOnce(
        `verification of ${email}`,
        await db('identity').collection('users').countDocuments({ email, emailVerified: true }),
      );
    for (const id of ack.savedSearches)
      expectOnce(
        `saved search ${id}`,
        await db('search')
          .collection('finance_searches')
          .countDocuments({ _id: id as never }),
      );
    for (const id of ack.dips)
      expectOnce(
        `DIP ${id}`,
        await db('dip')
          .collection('online_dips')
          .countDocuments({ _id: id as never }),
      );
    for (const share of ack.shares)
      expectOnce(
        `share of ${share.dipId} to ${share.email}`,
        await db('sharing')
          .collection('dip_shares')
          .countDocuments({ dipId: share.dipId, recipientEmail: share.email }),
      );

    // Emails: one verification per registration, one per targeted share; read from the mail catcher's store.
    const mail = db('notifications').collection<{ to: string[]; subject: string; receivedAt: Date }>(
      'caught_mail',
    );
    const emailWorkerKills = kills.filter((k) => k.victim === 'email-worker' || k.victim === 'redis');
    const expectOneEmail = async (to: string, what: string) => {
      const received = await mail.find({ to }).toArray();
      tally.acknowledged += 1;
      if (received.length === 1) return;
      if (received.length === 0) {
        tally.lost += 1;
        tally.problems.push(`${what} to ${to}: never sent`);
        return;
      }
      const nearKill = received.some((m) =>
        emailWorkerKills.some((k) => Math.abs(m.receivedAt.getTime() - k.at) <= SMTP_WINDOW_MS),
      );
      if (nearKill) tally.smtpWindowDuplicates += 1;
      else {
        tally.duplicated += 1;
        tally.problems.push(`${what} to ${to}: sent ${received.length} times`);
      }
    };
    for (const email of ack.registrations) await expectOneEmail(email, 'verification email');
    for (const share of ack.shares) await expectOneEmail(share.email, 'share email');
    tally.acknowledged += ack.signIns + ack.pdfs;
    return tally;
  } finally {
    await Promise.all(queues.map((q) => q.close()));
  }
}

/**
 * What is still in flight: unpublished outbox entries, queued jobs, and published events that a
 * consumer of their type has not handled. Consumers are found from the markers they leave
 * (processed_events: consumer and type), so a new consumer is checked without being listed here.
 */
async function measureBacklog(mongo: MongoClient, queues: Queue[]): Promise<Backlog> {
  let outbox = 0;
  const events: Array<{ eventId: string; type: string; publishedAt: Date | null; payload: string }> = [];
  const consumersOfType = new Map<string, Array<{ db: string; consumer: string }>>();
  for (const name of SERVICE_DATABASES) {
    const db = mongo.db(name);
    outbox += await db.collection('outbox').countDocuments({ publishedAt: null });
    events.push(
      ...(await db
        .collection<{ eventId: string; type: string; publishedAt: Date | null; payload: string }>('outbox')
        .find(
          { publishedAt: { $ne: null } },
          { projection: { eventId: 1, type: 1, publishedAt: 1, payload: 1 } },
        )
        .toArray()),
    );
    const pairs = await db
      .collection('processed_events')
      .aggregate<{ _id: { consumer: string; type: string } }>([
        { $group: { _id: { consumer: '$consumer', type: '$type' } } },
      ])
      .toArray();
    for (const { _id } of pairs) {
      const list = consumersOfType.get(_id.type) ?? [];
      list.push({ db: name, consumer: _id.consumer });
      consumersOfType.set(_id.type, list);
    }
  }
  const unhandledEvents: Backlog['unhandledEvents'] = [];
  for (const event of events) {
    const envelope = JSON.parse(event.payload) as EventEnvelope;
    for (const { db, consumer } of consumersOfType.get(event.type) ?? []) {
      if (!consumerActsOn(consumer, envelope)) continue;
      const marker = await mongo
        .db(db)
        .collection('processed_events')
        .countDocuments({ _id: `${consumer}:${event.eventId}` as never });
      if (marker === 0)
        unhandledEvents.push({
          eventId: event.eventId,
          type: event.type,
          consumer,
          publishedAt: event.publishedAt,
        });
    }
  }
  let queued = 0;
  for (const queue of queues) {
    const counts = await queue.getJobCounts(
      'waiting',
      'active',
      'delayed',
      'prioritized',
      'waiting-children',
    );
    queued += Object.values(counts).reduce((a, b) => a + b, 0);
  }
  return { outbox, queued, unhandled: unhandledEvents.length, unhandledEvents };
}
