import { rolesFor } from '@lsp/contracts';
import {
  SESSION_ABSOLUTE_TTL_SECONDS,
  SESSION_TTL_SECONDS,
  type SessionRecord,
  sessionKey,
  sessionTtlSeconds,
} from '@lsp/contracts';
import type { Clock } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import { randomToken } from '../domain/tokens';

const userSessionsKey = (userId: string) => `user-sessions:${userId}`;

/**
 * Sessions in Redis, written here and read by the gateway. Each user's session ids are also kept
 * in a set, so verifying the email can update the sessions already open.
 */
export class SessionStore {
  /** Verified accounts with these emails get the `ops` role at sign-in (OPS_EMAILS). */
  opsEmails: ReadonlySet<string> = new Set();

  constructor(
    private readonly redis: Redis,
    /** Decides when a session was created and when it ends. */
    private readonly clock: Clock,
    readonly ttlSeconds = SESSION_TTL_SECONDS,
    /** However often it is used, a session ends this long after sign-in. */
    readonly absoluteSeconds = SESSION_ABSOLUTE_TTL_SECONDS,
  ) {}

  /**
   * Always a fresh random id: a session id known before sign-in is never carried into it. The record
   * carries its absolute end, which the gateway's sliding expiry never passes.
   */
  async create(user: Omit<SessionRecord, 'createdAt' | 'expiresAt'>): Promise<string> {
    const id = randomToken();
    const now = this.clock.now().getTime();
    const record: SessionRecord = {
      ...user,
      roles: rolesFor(user, this.opsEmails),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.absoluteSeconds * 1000).toISOString(),
    };
    await this.redis
      .multi()
      .set(sessionKey(id), JSON.stringify(record), 'EX', this.remainingSeconds(record, now))
      .sadd(userSessionsKey(user.userId), id)
      // The set must outlive every session in it (they slide up to their absolute end, and the newest
      // ends last), or signing out everywhere would miss a session still in use.
      .expire(userSessionsKey(user.userId), Math.max(this.ttlSeconds, this.absoluteSeconds))
      .exec();
    return id;
  }

  /** Seconds the session may still live: the idle TTL capped by its absolute end; 0 once ended. */
  remainingSeconds(
    record: Pick<SessionRecord, 'createdAt' | 'expiresAt'>,
    now = this.clock.now().getTime(),
  ): number {
    return sessionTtlSeconds(record, this.ttlSeconds, now);
  }

  /** Ends every session of the user (sign out everywhere, password changed or reset); returns how many. */
  async destroyAll(userId: string): Promise<number> {
    const ids = await this.redis.smembers(userSessionsKey(userId));
    const tx = this.redis.multi();
    for (const id of ids) tx.del(sessionKey(id));
    tx.del(userSessionsKey(userId));
    const results = (await tx.exec()) ?? [];
    return results.slice(0, ids.length).reduce((n, [, deleted]) => n + Number(deleted ?? 0), 0);
  }

  async get(id: string): Promise<SessionRecord | null> {
    const text = await this.redis.get(sessionKey(id));
    return text ? (JSON.parse(text) as SessionRecord) : null;
  }

  async destroy(id: string): Promise<void> {
    const record = await this.get(id);
    const tx = this.redis.multi().del(sessionKey(id));
    if (record) tx.srem(userSessionsKey(record.userId), id);
    await tx.exec();
  }

  /** Marks every open session of the user verified, keeping each one's remaining lifetime. */
  async markVerified(userId: string): Promise<void> {
    const ids = await this.redis.smembers(userSessionsKey(userId));
    for (const id of ids) {
      const record = await this.get(id);
      if (!record) {
        await this.redis.srem(userSessionsKey(userId), id);
        continue;
      }
      await this.redis.set(
        sessionKey(id),
        JSON.stringify({
          ...record,
          verified: true,
          roles: rolesFor({ email: record.email, verified: true }, this.opsEmails),
        }),
        'KEEPTTL',
        'XX',
      );
    }
  }
}
