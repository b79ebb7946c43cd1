import { type EventEnvelope, eventEnvelopeSchema } from '@lsp/contracts';
import { type ClientSession, type Connection, Types } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { activeTraceContext } from '../tracing/context';
import { isDuplicateKey } from './mongo-errors';
import { errorMessage } from './retry';
import type { EventBus, EventLogger } from './types';

export interface OutboxEntry {
  /** An ObjectId, so entries sort in the order they were added. */
  _id: Types.ObjectId;
  eventId: string;
  type: string;
  subject: string;
  /** The envelope as JSON: stored verbatim so what is published is exactly what was added. */
  payload: string;
  createdAt: Date;
  publishedAt: Date | null;
  attempts: number;
  lastError?: string;
}

export interface OutboxOptions {
  collectionName?: string;
  /** How long published entries stay for audit before the TTL index removes them (default 7 days). */
  retentionSeconds?: number;
}

/**
 * The outbox as a port: what a service's repositories and handlers need to record events. Pass the
 * session of the transaction that makes the change, so the event is stored if and only if the change
 * commits. `Outbox` is the implementation; a test may pass anything with this method.
 */
export interface EventOutbox {
  add(events: EventEnvelope[], session?: ClientSession): Promise<unknown>;
  /** See `Outbox.handedOn`; an outbox without it is taken to hand everything on. */
  handedOn?(eventIds: string[], timeoutMs?: number): Promise<boolean | null>;
}

/** What the process that commits an outbox entry publishes it with (see `Outbox.publishAtCommit`). */
export interface CommitPublisher {
  bus: Pick<EventBus, 'publish'>;
  logger?: EventLogger;
  /** Commit to published, per event type (for the publish-delay histogram). */
  onPublished?(type: string, delayMs: number): void;
}

/** How long the outcome of a publish at commit is kept for `handedOn`. */
const OUTCOME_KEPT_MS = 30_000;

/**
 * How long the marks of entries published at commit wait to be written together, in one command.
 * Shorter than the relay's commit grace, so the relay never takes an entry only because its mark is
 * still waiting.
 */
export const PUBLISHED_MARK_DELAY_MS = 200;

/** The driver's transactions (one per attempt of a session) whose commit the server acknowledged. */
const acknowledgedCommits = new WeakSet<object>();
const watchedSessions = new WeakSet<ClientSession>();

/** The driver's object for the session's current transaction attempt (not in its public types). */
const transactionOf = (session: ClientSession): object =>
  (session as unknown as { transaction: object }).transaction;

/**
 * Records, for each transaction of this session, whether its commit was acknowledged: the driver's
 * `withTransaction` commits through the session's own `commitTransaction`, which resolves only when
 * the server has applied the commit. Its transaction state cannot tell: the driver marks a transaction
 * committed before the commit is sent, so a refused commit looks committed too.
 */
function watchCommits(session: ClientSession): void {
  if (watchedSessions.has(session)) return;
  watchedSessions.add(session);
  const commit = session.commitTransaction.bind(session);
  session.commitTransaction = async (...args: Parameters<ClientSession['commitTransaction']>) => {
    const transaction = transactionOf(session);
    await commit(...args);
    acknowledgedCommits.add(transaction);
  };
}

/**
 * The producer side of at-least-once delivery: events are written to the service's own `outbox`
 * collection in the same transaction as the state change they describe, so either both happen or
 * neither does. The process that committed them publishes them as soon as the transaction commits
 * (`publishAtCommit`); an `OutboxRelay` publishes whatever that left behind (a crash between commit
 * and publish, a bus that was down), as a safety net.
 */
export class Outbox {
  private readonly listeners = new Set<() => void>();
  private publisher: CommitPublisher | undefined;
  /** Publishes under way, so that shutdown can wait for them. */
  private readonly inFlight = new Set<Promise<void>>();
  /**
   * Per event id, whether its publish at commit went through (true), failed and was left to the
   * relay (false), or nobody publishes at commit (null); kept for a short while for `handedOn`.
   */
  private readonly outcomes = new Map<string, Promise<boolean | null>>();
  /** Entries published at commit whose `publishedAt` is not written yet (see PUBLISHED_MARK_DELAY_MS). */
  private readonly marks: Array<{ _id: Types.ObjectId; publishedAt: Date }> = [];
  private markTimer: NodeJS.Timeout | undefined;

  private constructor(
    readonly connection: Connection,
    readonly collectionName: string,
  ) {}

  /** Creates the collection and its indexes (outside any transaction, where that is not allowed). */
  static async open(connection: Connection, options: OutboxOptions = {}): Promise<Outbox> {
    const outbox = new Outbox(connection, options.collectionName ?? 'outbox');
    const collection = outbox.collection();
    // Unpublished entries have publishedAt null, which the TTL monitor ignores.
    await collection.createIndex(
      { publishedAt: 1 },
      { name: 'published_ttl', expireAfterSeconds: options.retentionSeconds ?? 7 * 24 * 3600 },
    );
    return outbox;
  }

  collection() {
    return this.connection.collection<OutboxEntry>(this.collectionName);
  }

  /**
   * From now on every entry this process adds is published by this process as soon as its
   * transaction commits (without one, at once), rather than by whichever relay holds the lease: a
   * relay in another process sharing the outbox (the PDF worker shares dip's) is never woken by this
   * one's commits, so the event would wait for its poll.
   */
  publishAtCommit(publisher: CommitPublisher): void {
    this.publisher = publisher;
  }

  /** Whether committed entries are published by the process that added them. */
  get publishesAtCommit(): boolean {
    return this.publisher !== undefined;
  }

  /** Waits for the publishes at commit under way and writes their marks (shutdown: before the bus closes). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.writeMarks();
  }

  /**
   * Adds events inside the caller's transaction: `await conn.transaction(async (session) => {
   * await Model.create([doc], { session }); await outbox.add([createEnvelope(...)], session); })`.
   * They are published when the session ends, i.e. once the transaction has committed: by this
   * process (`publishAtCommit`), or else by waking the relay.
   */
  async add(events: EventEnvelope[], session?: ClientSession): Promise<void> {
    if (events.length === 0) return;
    const createdAt = new Date();
    // Each event carries the trace context of the span that wrote it (none when tracing is off).
    const traceContext = activeTraceContext();
    const entries: OutboxEntry[] = events.map((written) => {
      const event = { ...traceContext, ...written };
      const envelope = eventEnvelopeSchema.parse(event);
      return {
        _id: new Types.ObjectId(),
        eventId: envelope.id,
        type: envelope.type,
        subject: envelope.subject,
        payload: JSON.stringify(event),
        createdAt,
        publishedAt: null,
        attempts: 0,
      };
    });
    await this.collection().insertMany(entries, { session, ordered: true });
    let settle: (outcome: boolean | null) => void = () => undefined;
    const outcome = new Promise<boolean | null>((resolve) => {
      settle = resolve;
    });
    for (const entry of entries) this.outcomes.set(entry.eventId, outcome);
    const forget = () =>
      setTimeout(() => {
        for (const entry of entries)
          if (this.outcomes.get(entry.eventId) === outcome) this.outcomes.delete(entry.eventId);
      }, OUTCOME_KEPT_MS).unref();
    // Written for certain: inserted without a transaction, or in one whose commit was acknowledged.
    const committed = (certain: boolean) => {
      if (this.publisher) {
        const publishing = this.publishCommitted(entries, certain);
        this.track(publishing.then(() => undefined));
        void publishing.then(settle, () => settle(false)).finally(forget);
      } else {
        this.notify();
        settle(null);
        forget();
      }
    };
    if (session?.inTransaction()) {
      const transaction = transactionOf(session);
      watchCommits(session);
      session.once('ended', () => committed(acknowledgedCommits.has(transaction)));
    } else committed(true);
  }

  /**
   * Whether these events (just added by this process, their transaction committed) were handed on to
   * the bus at commit: true when every one was published, false when a publish failed (the relay will
   * try again later), null when this process does not publish at commit or the answer does not come
   * within `timeoutMs`. A route that promises something downstream (an email) tells the caller so.
   */
  async handedOn(eventIds: string[], timeoutMs = 2000): Promise<boolean | null> {
    const outcomes = eventIds.map((id) => this.outcomes.get(id) ?? Promise.resolve(null));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    try {
      const answers = await Promise.race([Promise.all(outcomes), late]);
      if (answers === 'late') return null;
      if (answers.some((a) => a === false)) return false;
      return answers.every((a) => a === true) ? true : null;
    } finally {
      clearTimeout(timer);
    }
  }

  private track(publishing: Promise<void>) {
    this.inFlight.add(publishing);
    void publishing.finally(() => this.inFlight.delete(publishing));
  }

  /**
   * Publishes the entries one add() wrote, in order, once their transaction has ended. Unless their
   * write is `certain` (its commit acknowledged), they are read back first: an aborted transaction (or
   * an attempt that withTransaction ran again) left nothing, and a commit whose answer was lost may
   * have applied or not. On a failure it stops, so later entries do not overtake the failed one; the
   * relay's poll publishes what is left. (The relay leaves entries younger than its commit grace to
   * this step, so the two do not race for fresh ones.)
   */
  private async publishCommitted(written: OutboxEntry[], certain: boolean): Promise<boolean> {
    const publisher = this.publisher;
    if (!publisher) return false;
    let failed = false;
    const collection = this.collection();
    const published: OutboxEntry[] = [];
    try {
      const entries = certain
        ? written
        : await collection
            .find({ _id: { $in: written.map((entry) => entry._id) }, publishedAt: null })
            .sort({ _id: 1 })
            .toArray();
      for (const entry of entries) {
        try {
          await publisher.bus.publish(JSON.parse(entry.payload) as EventEnvelope);
        } catch (err) {
          await collection
            .updateOne({ _id: entry._id }, { $inc: { attempts: 1 }, $set: { lastError: errorMessage(err) } })
            .catch(() => undefined);
          publisher.logger?.warn(
            { err, eventId: entry.eventId, type: entry.type },
            'outbox: publishing at commit failed; the relay will publish it',
          );
          failed = true;
          break;
        }
        published.push(entry);
      }
      // The relay may be resting a long while: it takes over what was not published at its next poll.
      if (failed) this.notify();
      if (published.length > 0) {
        const publishedAt = new Date();
        for (const entry of published) {
          this.marks.push({ _id: entry._id, publishedAt });
          publisher.onPublished?.(entry.type, publishedAt.getTime() - entry.createdAt.getTime());
        }
        this.markTimer ??= setTimeout(() => this.track(this.writeMarks()), PUBLISHED_MARK_DELAY_MS).unref();
      }
    } catch (err) {
      // MongoDB unreachable after the commit: the entries stay pending for the relay.
      publisher.logger?.warn({ err }, 'outbox: publishing at commit failed; the relay will publish it');
      this.notify();
      return false;
    }
    return !failed;
  }

  /**
   * Writes the `publishedAt` of the entries published at commit since the last time, in one command:
   * under traffic that is one database round trip for many events rather than one each. A mark that
   * cannot be written (or a crash before it) leaves its entry to the relay, which publishes it again;
   * consumers take each event once whatever the number of deliveries.
   */
  private async writeMarks(): Promise<void> {
    clearTimeout(this.markTimer);
    this.markTimer = undefined;
    const marks = this.marks.splice(0);
    if (marks.length === 0) return;
    try {
      await this.collection().bulkWrite(
        marks.map(({ _id, publishedAt }) => ({
          updateOne: {
            filter: { _id, publishedAt: null },
            update: { $set: { publishedAt }, $inc: { attempts: 1 }, $unset: { lastError: '' } },
          },
        })),
        { ordered: false },
      );
    } catch (err) {
      this.publisher?.logger?.warn(
        { err, entries: marks.length },
        'outbox: marking published entries failed; the relay will publish them again',
      );
    }
  }

  /** Entries not yet published: the relay's backlog (a queue-depth gauge). */
  async countPending(): Promise<number> {
    return this.collection().countDocuments({ publishedAt: null });
  }

  onAdded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify() {
    for (const listener of this.listeners) listener();
  }
}

const DEFAULT_RELAY_POLL_MS = 5000;

/**
 * How long a relay waits before its next poll after `quietPolls` polls in a row found nothing: the base
 * interval after the first, then doubling up to `maxMs`.
 */
export function quietPollDelay(quietPolls: number, baseMs: number, maxMs: number): number {
  const doublings = Math.min(Math.max(quietPolls - 1, 0), 30);
  return Math.min(Math.max(baseMs, maxMs), baseMs * 2 ** doublings);
}
/**
 * Where the committing process publishes its own entries, the relay leaves an entry this long to it
 * (from when it was added) before taking it, so the two do not publish the same entry at once.
 */
const DEFAULT_COMMIT_GRACE_MS = 2000;

export interface OutboxRelayOptions {
  outbox: Outbox;
  bus: Pick<EventBus, 'publish'>;
  /**
   * Safety net for entries their committing process did not publish (it crashed after the commit, or
   * the bus was down): default 5 s. Entries are published at commit, so the poll only bounds how late
   * those few are; the tests set it to an hour to prove that nothing else waits for it.
   */
  pollIntervalMs?: number;
  /**
   * A poll that finds nothing doubles the wait before the next, up to this (default twelve times
   * `pollIntervalMs`, one minute): an idle service then wakes MongoDB once a minute per outbox instead
   * of every 5 s. Anything published, a wake-up or a failed publish at commit brings the wait back to
   * `pollIntervalMs`.
   */
  maxPollIntervalMs?: number;
  batchSize?: number;
  /** Backoff while the bus is unreachable: doubles from the first delay up to the second. */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * Only one relay per outbox publishes at a time (several instances of a service each run one): it
   * holds a lease renewed on every cycle; if it dies, another takes over once the lease has run out.
   */
  leaseMs?: number;
  /** See DEFAULT_COMMIT_GRACE_MS; applies only to an outbox that publishes at commit. */
  commitGraceMs?: number;
  logger?: EventLogger;
}

interface RelayLease {
  _id: string;
  owner: string;
  expiresAt: Date;
}

/**
 * Publishes outbox entries in the order they were added and marks each one published. When a publish
 * fails it stops at that entry (so later ones do not overtake it) and retries with exponential backoff
 * until the bus is back. An entry published but not yet marked is published again after a crash:
 * consumers are idempotent.
 */
export class OutboxRelay {
  private running = false;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private unsubscribe: (() => void) | undefined;
  private failures = 0;
  /** Polls in a row that published nothing and were not woken: each doubles the next wait. */
  private quietPolls = 0;
  private readonly relayId = randomUUID();
  /** When the lease this relay last took or renewed runs out (0: not held). */
  private leaseExpiresAt = 0;

  constructor(private readonly options: OutboxRelayOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.unsubscribe = this.options.outbox.onAdded(() => this.wake());
    this.loop = this.run();
  }

  /** Lets the publish in progress finish, then stops; entries left are published on the next start. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    this.unsubscribe?.();
    this.wakeUp?.();
    await this.loop;
    // Hand over at once rather than after the lease runs out.
    this.leaseExpiresAt = 0;
    await this.leases()
      .deleteOne({ _id: this.options.outbox.collectionName, owner: this.relayId })
      .catch(() => undefined);
  }

  /** Publishes now rather than at the next poll (unless waiting out a bus failure). */
  wake(): void {
    this.woken = true;
    this.quietPolls = 0;
    if (this.failures === 0) this.wakeUp?.();
  }

  /** Publishes what is pending, up to one batch; returns how many entries were published. */
  async publishPending(): Promise<number> {
    const { outbox, bus } = this.options;
    if (!(await this.holdLease())) return 0;
    const collection = outbox.collection();
    const pending = outbox.publishesAtCommit
      ? {
          publishedAt: null,
          createdAt: { $lt: new Date(Date.now() - (this.options.commitGraceMs ?? DEFAULT_COMMIT_GRACE_MS)) },
        }
      : { publishedAt: null };
    const batch = await collection
      .find(pending)
      .sort({ _id: 1 })
      .limit(this.options.batchSize ?? 100)
      .toArray();
    const published: Types.ObjectId[] = [];
    try {
      for (const entry of batch) {
        if (this.stopping) break;
        try {
          await bus.publish(JSON.parse(entry.payload) as EventEnvelope);
        } catch (err) {
          await collection
            .updateOne({ _id: entry._id }, { $inc: { attempts: 1 }, $set: { lastError: errorMessage(err) } })
            .catch(() => undefined);
          throw err;
        }
        published.push(entry._id);
      }
    } finally {
      // One write per batch rather than per entry; a crash before it republishes at most one batch.
      if (published.length > 0) {
        await collection.updateMany(
          { _id: { $in: published } },
          { $set: { publishedAt: new Date() }, $inc: { attempts: 1 }, $unset: { lastError: '' } },
        );
      }
    }
    return published.length;
  }

  private leases() {
    return this.options.outbox.connection.collection<RelayLease>('outbox_relay_lease');
  }

  /**
   * Takes or renews the lease; false while another live relay holds it. A lease renewed less than a
   * third of its length ago is still this relay's without asking MongoDB: under load the relay is woken
   * for every committed add, and renewing each time was a database round trip per event.
   */
  private async holdLease(): Promise<boolean> {
    const now = Date.now();
    const leaseMs = this.options.leaseMs ?? 15_000;
    if (this.leaseExpiresAt - now > (leaseMs * 2) / 3) return true;
    this.leaseExpiresAt = 0;
    try {
      const lease = await this.leases().findOneAndUpdate(
        {
          _id: this.options.outbox.collectionName,
          $or: [{ owner: this.relayId }, { expiresAt: { $lt: new Date(now) } }],
        },
        { $set: { owner: this.relayId, expiresAt: new Date(now + leaseMs) } },
        { upsert: true, returnDocument: 'after' },
      );
      const held = lease?.owner === this.relayId;
      if (held) this.leaseExpiresAt = now + leaseMs;
      return held;
    } catch (err) {
      // The upsert collided with the lease document another relay holds.
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? 100;
    while (this.running) {
      this.woken = false;
      let published: number;
      try {
        published = await this.publishPending();
        if (this.failures > 0)
          this.options.logger?.info({ after: this.failures }, 'outbox relay: publishing again');
        this.failures = 0;
      } catch (err) {
        this.failures++;
        const delay = Math.min(
          this.options.maxRetryDelayMs ?? 30_000,
          (this.options.initialRetryDelayMs ?? 200) * 2 ** Math.min(this.failures - 1, 20),
        );
        this.options.logger?.warn(
          { err, failures: this.failures, retryInMs: delay },
          'outbox relay: publishing failed; will retry',
        );
        await this.idle(delay);
        continue;
      }
      if (published >= batchSize || this.woken) {
        this.quietPolls = 0;
        continue;
      }
      this.quietPolls = published > 0 ? 0 : this.quietPolls + 1;
      await this.idle(this.nextPollDelay());
    }
  }

  private nextPollDelay(): number {
    const base = this.options.pollIntervalMs ?? DEFAULT_RELAY_POLL_MS;
    return quietPollDelay(this.quietPolls, base, this.options.maxPollIntervalMs ?? base * 12);
  }

  private async idle(ms: number): Promise<void> {
    if (!this.running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
    this.wakeUp = undefined;
  }
}
