import { SESSION_TTL_SECONDS, type SessionRecord, sessionKey } from '@lsp/contracts';
import type { Redis } from 'ioredis';
import { randomToken } from './tokens';

const userSessionsKey = (userId: string) => `user-sessions:${userId}`;

/**
 * Sessions in Redis, written here and read by the gateway. Each user's session ids are also kept
 * in a set, so verifying the email can update the sessions already open.
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    readonly ttlSeconds = SESSION_TTL_SECONDS,
  ) {}

  /** Always a fresh random id: a session id known before sign-in is never carried into it. */
  async create(user: Omit<SessionRecord, 'createdAt'>): Promise<string> {
    const id = randomToken();
    const record: SessionRecord = { ...user, createdAt: new Date().toISOString() };
    await this.redis
      .multi()
      .set(sessionKey(id), JSON.stringify(record), 'EX', this.ttlSeconds)
      .sadd(userSessionsKey(user.userId), id)
      .expire(userSessionsKey(user.userId), this.ttlSeconds)
      .exec();
    return id;
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
      await this.redis.set(sessionKey(id), JSON.stringify({ ...record, verified: true }), 'KEEPTTL', 'XX');
    }
  }
}
