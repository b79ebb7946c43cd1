/**
 * After the chaos: what was acknowledged against what the databases hold. Each acknowledged request
 * must be stored exactly once; each outbox event published and handled by every consumer of its type;
 * each verification and share email sent exactly once (a duplicate sent while the email worker was
 * being killed is the documented SMTP window: counted apart); each acknowledged lender panel
 * activation's re-pricing finished, every saved search it changed re-priced and published once, and
 * each owner alerted once per change; nothing left pending.
 */
import {
  DIP_EVENT_TYPES,
  type EventEnvelope,
  IDENTITY_EVENT_TYPES,
  PANEL_REPRICING_WINDOW_DAYS,
  SEARCH_EVENT_TYPES,
  SHARING_EVENT_TYPES,
} from '@lsp/contracts';
import { Queue } from 'bullmq';
import type { MongoClient } from 'mongodb';
import { alertIsOwed } from '../../services/notifications/src/events/alerts';
import { sharingEmailJobFor } from '../../services/notifications/src/events/consumed';
import { repriceSavedSearch, repricingChanged } from '../../services/search/src/use-cases/repricing';
import type { KillRecord } from './run';
import type { PanelActivationAck, Workload } from './workload';

export interface Tally {
  acknowledged: number;
  lost: number;
  duplicated: number;
  smtpWindowDuplicates: number;
  pending: number;
  /** Acknowledged panel activations, saved searches they re-priced, and re-pricing alert emails sent. */
  activations: number;
  repricedSearches: number;
  alertEmails: number;
  problems: string[];
}

const SEARCH_RUN_COLLECTIONS = {
  development: 'development_searches',
  bridging: 'bridging_searches',
  commercial: 'commercial_searches',
} as const;
const SERVICE_DATABASES = ['identity', 'search', 'dip', 'sharing', 'notifications'];
const QUEUES = ['email', 'pdf', 'repricing'];
/** A duplicate email sent this close to a kill of the email worker is the SMTP window. */
const SMTP_WINDOW_MS = 15000;
const DRAIN_TIMEOUT_MS = 90000;
/** Re-pricing alerts: a saved search's better offer, or the product of a DIP changed. */
const ALERT_SUBJECTS = /^(A better offer for |The lender has changed the product of your DIP)/;

/**
 * Consumers that act on only some events of a type and leave no marker for the others, with the rule
 * they go by (their own code, where it can be shared): an event passed over by its rule is not one the
 * consumer failed to handle. notifications emails a share.created only when it names a recipient (an
 * open link has no one to email: sharing makes one as the copy-link fallback when share.created could
 * not be handed on to the bus at once, which with Kafka happens while the broker is down).
 */
const ACTS_ON: Record<string, (envelope: EventEnvelope, facts: ConsumerFacts) => boolean> = {
  'notifications:email': (envelope) =>
    !SHARING_EMAIL_TYPES.has(envelope.type) || sharingEmailJobFor(envelope) !== null,
  // An application made without a saved search has no search to mark.
  'search:applications': (envelope) => Boolean((envelope.data as { searchId?: string | null }).searchId),
  'notifications:alerts': actsOnAlert,
};

/** What a consumer's rule reads besides the event: whom alerts can be written to, and who turned them off. */
export interface ConsumerFacts {
  /** Users whose identity.user.registered was published (notifications keeps them as alert recipients). */
  knownRecipients: ReadonlySet<string>;
  /** Users who turned re-pricing alerts off (they are on until turned off). */
  alertsOff: ReadonlySet<string>;
}
const NO_FACTS: ConsumerFacts = { knownRecipients: new Set(), alertsOff: new Set() };

/** notifications' own rule for re-pricing alerts, on the facts the reconciliation reads from the databases. */
function actsOnAlert(envelope: EventEnvelope, facts: ConsumerFacts): boolean {
  const userId = (envelope.data as { userId?: unknown }).userId;
  return (
    typeof userId === 'string' &&
    alertIsOwed(envelope, {
      addressKnown: facts.knownRecipients.has(userId),
      alertsOn: !facts.alertsOff.has(userId),
    })
  );
}
const SHARING_EMAIL_TYPES = new Set<string>([
  SHARING_EVENT_TYPES.shareCreated,
  SHARING_EVENT_TYPES.dealShared,
  SHARING_EVENT_TYPES.referralCreated,
]);

/** Whether `consumer` (a processed-event marker's consumer) is meant to handle this published event. */
export function consumerActsOn(
  consumer: string,
  envelope: EventEnvelope,
  facts: ConsumerFacts = NO_FACTS,
): boolean {
  return ACTS_ON[consumer]?.(envelope, facts) ?? true;
}

interface Backlog {
  outbox: number;
  queued: number;
  unhandled: number;
  /** Acknowledged panel activations whose re-pricing run has not finished. */
  unfinishedRuns: number;
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
    activations: 0,
    repricedSearches: 0,
    alertEmails: 0,
    problems: [],
  };
  const runIds = ack.activations.filter((a) => a.previousVersion).map(repricingRunId);
  const queues = QUEUES.map((name) => new Queue(name, { connection: { url: opts.redisUrl } }));
  try {
    // Quiet first: every outbox published, every queue empty, every event handled (or time runs out).
    let backlog = await measureBacklog(mongo, queues, runIds);
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (
      backlog.outbox + backlog.queued + backlog.unhandled + backlog.unfinishedRuns > 0 &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      backlog = await measureBacklog(mongo, queues, runIds);
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
    const expectOnce = (what: string, count: number): void => {
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
    // The email worker dies alone, inside the all-in-one host, or with Redis.
    const emailWorkerKills = kills.filter((k) => ['email-worker', 'all-in-one', 'redis'].includes(k.victim));
    const expectOneEmail = async (to: string, what: string) => {
      // Re-pricing alerts go to the same people: counted apart (reconcileAlerts).
      const received = await mail.find({ to, subject: { $not: ALERT_SUBJECTS } }).toArray();
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

    await reconcileRepricing(mongo, workload, tally, expectOnce);
    await reconcileAlerts(mongo, tally, (sent) =>
      sent.some((m) =>
        emailWorkerKills.some((k) => Math.abs(m.receivedAt.getTime() - k.at) <= SMTP_WINDOW_MS),
      ),
    );
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
async function measureBacklog(mongo: MongoClient, queues: Queue[], runIds: string[]): Promise<Backlog> {
  let outbox = 0;
  const facts = await consumerFacts(mongo);
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
      if (!consumerActsOn(consumer, envelope, facts)) continue;
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
  const unfinishedRuns =
    runIds.length -
    (await mongo
      .db('search')
      .collection('repricing_runs')
      .countDocuments({ _id: { $in: runIds as never[] }, status: 'done' }));
  return { outbox, queued, unhandled: unhandledEvents.length, unfinishedRuns, unhandledEvents };
}

/** The re-pricing run of an activation (services/search/src/use-cases/repricing-job.ts repricingRunId). */
const repricingRunId = (activation: PanelActivationAck) => `${activation.version}@${activation.activatedAt}`;

/** Published identity.user.registered events: userId to address (whom notifications can alert). */
async function registeredUsers(mongo: MongoClient): Promise<Map<string, string>> {
  const registered = await mongo
    .db('identity')
    .collection<{ payload: string }>('outbox')
    .find(
      { type: IDENTITY_EVENT_TYPES.registered, publishedAt: { $ne: null } },
      { projection: { payload: 1 } },
    )
    .toArray();
  return new Map(
    registered.map(({ payload }) => {
      const { userId, email } = (JSON.parse(payload) as EventEnvelope<{ userId: string; email: string }>)
        .data;
      return [userId, email];
    }),
  );
}

async function consumerFacts(mongo: MongoClient): Promise<ConsumerFacts> {
  const off = await mongo
    .db('notifications')
    .collection<{ _id: string }>('alert_settings')
    .find({ repricingAlerts: false }, { projection: { _id: 1 } })
    .toArray();
  return {
    knownRecipients: new Set((await registeredUsers(mongo)).keys()),
    alertsOff: new Set(off.map((doc) => doc._id)),
  };
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Each acknowledged activation (with a version before it): its re-pricing run finished; every search
 * saved in the 90 days before it whose offers the change moved (worked out here again, on the same
 * two panels) has one re-pricing record of that run and one search.repriced for that version; no
 * other search has one.
 */
async function reconcileRepricing(
  mongo: MongoClient,
  workload: Workload,
  tally: Tally,
  expectOnce: (what: string, count: number) => void,
) {
  const search = mongo.db('search');
  const repriced = new Map<string, number>();
  const published = await search
    .collection<{ subject: string; payload: string }>('outbox')
    .find({ type: SEARCH_EVENT_TYPES.repriced }, { projection: { subject: 1, payload: 1 } })
    .toArray();
  for (const { subject, payload } of published) {
    const { panelVersion } = (JSON.parse(payload) as EventEnvelope<{ panelVersion: string }>).data;
    const key = `${subject}@${panelVersion}`;
    repriced.set(key, (repriced.get(key) ?? 0) + 1);
  }
  tally.activations = workload.acknowledged.activations.length;
  for (const activation of workload.acknowledged.activations) {
    if (!activation.previousVersion) continue;
    const runId = repricingRunId(activation);
    const run = await search
      .collection<{ _id: string; status: string }>('repricing_runs')
      .findOne({ _id: runId });
    expectOnce(`re-pricing run ${runId} finished`, run?.status === 'done' ? 1 : 0);
    const before = workload.panels.get(activation.previousVersion);
    const after = workload.panels.get(activation.version);
    if (!before || !after) {
      tally.problems.push(
        `panel ${activation.previousVersion} or ${activation.version}: not one of this run's`,
      );
      continue;
    }
    const until = new Date(activation.activatedAt);
    const saved = await search
      .collection<{
        _id: string;
        loan_type: 'development' | 'bridging' | 'commercial';
        search_data: Record<string, unknown>;
      }>('finance_searches')
      .find(
        {
          created_at: { $gte: new Date(until.getTime() - PANEL_REPRICING_WINDOW_DAYS * DAY_MS), $lt: until },
        },
        { projection: { _id: 1, loan_type: 1, search_data: 1 } },
      )
      .toArray();
    const changed = new Set(
      saved
        .filter((doc) => {
          const moved = repriceSavedSearch(doc, before, after);
          return moved !== null && repricingChanged(moved);
        })
        .map((doc) => doc._id),
    );
    const records = await search
      .collection<{ searchId: string }>('search_repricings')
      .find({ runId }, { projection: { searchId: 1 } })
      .toArray();
    for (const searchId of changed) {
      expectOnce(
        `re-pricing of saved search ${searchId} in ${runId}`,
        records.filter((r) => r.searchId === searchId).length,
      );
      expectOnce(
        `search.repriced of ${searchId} for ${activation.version}`,
        repriced.get(`${searchId}@${activation.version}`) ?? 0,
      );
    }
    tally.repricedSearches += changed.size;
    for (const record of records.filter((r) => !changed.has(r.searchId))) {
      tally.duplicated += 1;
      tally.problems.push(
        `saved search ${record.searchId} re-priced in ${runId}, though the change left it as it was`,
      );
    }
  }
}

/**
 * Re-pricing alerts: one email per user per panel change, for each change that improved a saved
 * search's best offer (a betterBest record of its run) or changed a DIP's product (a
 * dip.product.changed), for users whose address is known and who keep alerts on. Every run is
 * counted, an activation whose answer was lost too: its alerts are sent all the same. A search and a
 * DIP alert of the same change share one claim (`<userId>@<panelVersion>`), so the user gets one
 * of the two. Emails carry no version: what each user should have in all is compared with what
 * they received; a surplus sent near a kill of the email worker is the SMTP window.
 */
async function reconcileAlerts(
  mongo: MongoClient,
  tally: Tally,
  nearEmailWorkerKill: (sent: Array<{ receivedAt: Date }>) => boolean,
) {
  const users = await registeredUsers(mongo);
  const { alertsOff } = await consumerFacts(mongo);
  const due = new Map<string, Set<string>>();
  const owe = (userId: string, panelVersion: string) => {
    if (!users.has(userId) || alertsOff.has(userId)) return;
    due.set(userId, (due.get(userId) ?? new Set()).add(panelVersion));
  };
  const better = await mongo
    .db('search')
    .collection<{ userId: string; panelVersion: string }>('search_repricings')
    .find({ betterBest: true }, { projection: { userId: 1, panelVersion: 1 } })
    .toArray();
  for (const { userId, panelVersion } of better) owe(userId, panelVersion);
  const dipChanges = await mongo
    .db('dip')
    .collection<{ payload: string }>('outbox')
    .find({ type: DIP_EVENT_TYPES.productChanged }, { projection: { payload: 1 } })
    .toArray();
  for (const { payload } of dipChanges) {
    const { userId, panelVersion } = (
      JSON.parse(payload) as EventEnvelope<{ userId: string; panelVersion: string }>
    ).data;
    owe(userId, panelVersion);
  }

  const claims = mongo.db('notifications').collection<{ _id: string }>('repricing_alerts');
  const mail = mongo
    .db('notifications')
    .collection<{ to: string[]; subject: string; receivedAt: Date }>('caught_mail');
  const alerted = new Map<string, Array<{ receivedAt: Date }>>();
  for (const m of await mail.find({ subject: ALERT_SUBJECTS }).toArray()) {
    tally.alertEmails += 1;
    for (const to of m.to) alerted.set(to, [...(alerted.get(to) ?? []), m]);
  }
  for (const [userId, versions] of due) {
    for (const version of versions) {
      tally.acknowledged += 1;
      if ((await claims.countDocuments({ _id: `${userId}@${version}` })) === 0) {
        tally.lost += 1;
        tally.problems.push(`re-pricing alert of ${userId} for ${version}: never claimed`);
      }
    }
  }
  const addresses = new Set([...[...due.keys()].map((id) => users.get(id)!), ...alerted.keys()]);
  const userOf = new Map([...users].map(([id, email]) => [email, id]));
  for (const email of addresses) {
    const expected = due.get(userOf.get(email) ?? '')?.size ?? 0;
    const sent = alerted.get(email) ?? [];
    if (sent.length < expected) {
      tally.lost += expected - sent.length;
      tally.problems.push(`re-pricing alerts to ${email}: ${sent.length} sent of ${expected}`);
    } else if (sent.length > expected) {
      if (nearEmailWorkerKill(sent)) tally.smtpWindowDuplicates += sent.length - expected;
      else {
        tally.duplicated += sent.length - expected;
        tally.problems.push(
          `re-pricing alerts to ${email}: ${sent.length} sent for ${expected} panel changes`,
        );
      }
    }
  }
}
