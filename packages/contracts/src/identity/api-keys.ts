import { z } from 'zod';
import { API_KEY_SCOPES, type ApiKeyScope } from '../api/route';
import { nameText } from '../common/text';

/**
 * API keys: a broker's system calls the API as its user with `Authorization: Bearer <key>`. Identity
 * makes, lists and revokes them and writes the lookup record to Redis; the gateway reads it as it reads
 * sessions. Only the SHA-256 of a key is ever stored.
 */

export const API_KEY_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 100 characters',
  nameCharacters: 'Name must not contain control or text-direction characters',
  unknownScope: `Scopes must be some of: ${API_KEY_SCOPES.join(', ')}`,
  scopesEmpty: 'Scopes must name at least one scope (or be left out for all of them)',
  expiresInDays: 'expiresInDays must be a whole number of days from 1 to 3650',
  tooMany: 'You have the most API keys an account may hold. Revoke one you no longer use first.',
  notFound: 'API key not found',
  badId: 'An API key id is at most 64 characters',
  sessionOnly: 'API keys are managed only from a signed-in browser session, not with an API key.',
  missingKey: 'The Authorization header must be "Bearer <API key>".',
  invalidKey: 'This API key is not valid: it is unknown, revoked or expired.',
  outOfScope: (scope: string) => `This API key does not have the scope this route needs (${scope}).`,
  notForKeys: 'This route cannot be called with an API key.',
} as const;

/**
 * A key is `lsp_<id>_<secret>`: the `lsp_` mark (so secret scanners recognise a leaked one), the key's
 * 24-hex-digit id (which finds its record) and 32 random bytes in base64url (whose SHA-256 the record
 * holds, compared in constant time).
 */
export const API_KEY_TOKEN_PREFIX = 'lsp_';
export const API_KEY_PATTERN = /^lsp_([a-f0-9]{24})_([A-Za-z0-9_-]{43})$/;
/** How many leading characters of a key are kept and shown, so its owner can tell keys apart. */
export const API_KEY_SHOWN_PREFIX_LENGTH = 16;
/** The most live keys one account may hold. */
export const API_KEYS_PER_USER_MAX = 20;

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: API_KEY_MESSAGES.unknownScope });

export const createApiKeyBodySchema = z.strictObject({
  name: nameText(
    z
      .string({ error: API_KEY_MESSAGES.nameRequired })
      .trim()
      .min(1, API_KEY_MESSAGES.nameRequired)
      .max(100, API_KEY_MESSAGES.nameTooLong),
    API_KEY_MESSAGES.nameCharacters,
  ),
  /** Left out: every scope. */
  scopes: z
    .array(apiKeyScopeSchema)
    .min(1, API_KEY_MESSAGES.scopesEmpty)
    .max(API_KEY_SCOPES.length * 2)
    .optional(),
  /** Left out: the key lives until it is revoked. */
  expiresInDays: z
    .number({ error: API_KEY_MESSAGES.expiresInDays })
    .int(API_KEY_MESSAGES.expiresInDays)
    .min(1, API_KEY_MESSAGES.expiresInDays)
    .max(3650, API_KEY_MESSAGES.expiresInDays)
    .optional(),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** A key as its owner sees it in the list: never the key itself. */
export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>;

/** The answer to making a key: the only time `key` is shown. */
export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
});

/** Any id is looked up (an unknown one is 404); bounded so no request part is unbounded. */
export const apiKeyParamsSchema = z.object({ keyId: z.string().max(64, API_KEY_MESSAGES.badId) });

/**
 * The record identity writes to Redis under `apiKeyLookupKey(id)` and the gateway reads: who the key
 * acts as, what it may do, and the SHA-256 of the whole key. Deleting it revokes the key at once.
 */
export interface ApiKeyRecord {
  id: string;
  /** sha-256 (hex) of the whole key. */
  digest: string;
  userId: string;
  email: string;
  name: string;
  verified: boolean;
  scopes: ApiKeyScope[];
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
}

/**
 * Set by the gateway (with its internal secret) on a call it authenticated with an API key: the key's
 * id. Services refuse key management to such calls; a client's own `x-user-*` headers are dropped first.
 */
export const API_KEY_ID_HEADER = 'x-user-api-key-id';

export const apiKeyLookupKey = (keyId: string) => `api-key:${keyId}`;
/** When the gateway last accepted the key (ISO time): written by the gateway, read by the list. */
export const apiKeyLastUsedKey = (keyId: string) => `api-key-last-used:${keyId}`;
