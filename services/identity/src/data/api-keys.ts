import {
  API_KEYS_PER_USER_MAX,
  API_KEY_SCOPES,
  API_KEY_SHOWN_PREFIX_LENGTH,
  API_KEY_TOKEN_PREFIX,
  type ApiKeyRecord,
  type ApiKeyScope,
  type ApiKeySummary,
  apiKeyLastUsedKey,
  apiKeyLookupKey,
} from '@lsp/contracts';
import { randomBytes } from 'node:crypto';
import type { Clock } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import { hashToken } from '../domain/tokens';

/** Every key of a user (id → its listing), for the list and for revoking. */
const userApiKeysKey = (userId: string) => `user-api-keys:${userId}`;

type StoredKey = Omit<ApiKeySummary, 'lastUsedAt'>;

export interface NewApiKey {
  userId: string;
  email: string;
  ownerName: string;
  verified: boolean;
  keyName: string;
  scopes?: ApiKeyScope[];
  expiresInDays?: number;
}

export type CreatedApiKey = StoredKey & { key: string };

/**
 * API keys in Redis, beside the sessions: the lookup record `api-key:<id>` that the gateway reads,
 * and the user's hash `user-api-keys:<userId>` that lists and revokes them. The key itself is returned
 * once and never stored.
 */
export class ApiKeyStore {
  constructor(
    private readonly redis: Redis,
    /** Decides when a key was made, when it expires and which keys have expired. */
    private readonly clock: Clock,
  ) {}

  /** Makes a key, or returns null when the user already holds API_KEYS_PER_USER_MAX live keys. */
  async create(input: NewApiKey, now = this.clock.now().getTime()): Promise<CreatedApiKey | null> {
    const live = await this.list(input.userId, now);
    if (live.length >= API_KEYS_PER_USER_MAX) return null;
    const id = randomBytes(12).toString('hex');
    const key = `${API_KEY_TOKEN_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
    const scopes = API_KEY_SCOPES.filter((scope) => (input.scopes ?? API_KEY_SCOPES).includes(scope));
    const expiresAt = input.expiresInDays
      ? new Date(now + input.expiresInDays * 24 * 3600 * 1000).toISOString()
      : null;
    const stored: StoredKey = {
      id,
      name: input.keyName,
      prefix: key.slice(0, API_KEY_SHOWN_PREFIX_LENGTH),
      scopes,
      createdAt: new Date(now).toISOString(),
      expiresAt,
    };
    const record: ApiKeyRecord = {
      id,
      digest: hashToken(key),
      userId: input.userId,
      email: input.email,
      name: input.ownerName,
      verified: input.verified,
      scopes,
      prefix: stored.prefix,
      createdAt: stored.createdAt,
      expiresAt,
    };
    const tx = this.redis.multi();
    if (input.expiresInDays) {
      tx.set(apiKeyLookupKey(id), JSON.stringify(record), 'EX', input.expiresInDays * 24 * 3600);
    } else {
      tx.set(apiKeyLookupKey(id), JSON.stringify(record));
    }
    tx.hset(userApiKeysKey(input.userId), stored.id, JSON.stringify(stored));
    await tx.exec();
    return { ...stored, key };
  }

  /** The user's live keys, newest first, with when each was last used; expired ones are forgotten. */
  async list(userId: string, now = this.clock.now().getTime()): Promise<ApiKeySummary[]> {
    const all = Object.values(await this.redis.hgetall(userApiKeysKey(userId))).map(
      (text) => JSON.parse(text) as StoredKey,
    );
    const expired = all.filter((key) => key.expiresAt !== null && Date.parse(key.expiresAt) <= now);
    if (expired.length > 0) {
      await this.redis.hdel(userApiKeysKey(userId), ...expired.map((key) => key.id));
    }
    const live = all
      .filter((key) => !expired.includes(key))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    if (live.length === 0) return [];
    const lastUsed = await this.redis.mget(live.map((key) => apiKeyLastUsedKey(key.id)));
    return live.map((key, i) => ({ ...key, lastUsedAt: lastUsed[i] ?? null }));
  }

  /** Revokes one of the user's keys at once; false when the user holds no key with this id. */
  async revoke(userId: string, keyId: string): Promise<boolean> {
    if (!(await this.redis.hexists(userApiKeysKey(userId), keyId))) return false;
    await this.redis
      .multi()
      .del(apiKeyLookupKey(keyId))
      .hdel(userApiKeysKey(userId), keyId)
      .del(apiKeyLastUsedKey(keyId))
      .exec();
    return true;
  }
}
