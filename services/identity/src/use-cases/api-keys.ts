import { API_KEY_MESSAGES, type CreateApiKeyBody } from '@lsp/contracts';
import { type CallerIdentity, HttpError, forbidden } from '@lsp/service-kit';
import type { ApiKeyStore } from '../data/api-keys';
import type { RequestContext } from './request-context';

export interface ApiKeyDeps {
  apiKeys: ApiKeyStore;
}

/** The signed-in user a key call is for, and how the gateway authenticated the call. */
export interface KeyHolder {
  caller: CallerIdentity;
  /** The call came with an API key rather than a session. */
  viaApiKey: boolean;
}

/** A call the gateway authenticated with an API key may not make, list or revoke keys. */
function refuseApiKeyCaller(holder: KeyHolder) {
  if (holder.viaApiKey) throw forbidden(API_KEY_MESSAGES.sessionOnly);
}

/** Makes a key for the caller; the answer is the only time the key itself is shown. */
export async function createApiKey(
  deps: ApiKeyDeps,
  holder: KeyHolder,
  body: CreateApiKeyBody,
  context: RequestContext,
) {
  refuseApiKeyCaller(holder);
  const { caller } = holder;
  const created = await deps.apiKeys.create({
    userId: caller.userId,
    email: caller.email,
    ownerName: caller.name,
    verified: caller.verified,
    keyName: body.name,
    scopes: body.scopes,
    expiresInDays: body.expiresInDays,
  });
  if (!created) throw new HttpError(409, API_KEY_MESSAGES.tooMany);
  context.log.info({ userId: caller.userId, apiKeyId: created.id, scopes: created.scopes }, 'api key made');
  return created;
}

/** The caller's keys, never the keys themselves. */
export async function listApiKeys(deps: ApiKeyDeps, holder: KeyHolder) {
  refuseApiKeyCaller(holder);
  return { apiKeys: await deps.apiKeys.list(holder.caller.userId) };
}

export async function revokeApiKey(
  deps: ApiKeyDeps,
  holder: KeyHolder,
  keyId: string,
  context: RequestContext,
) {
  refuseApiKeyCaller(holder);
  const { userId } = holder.caller;
  const revoked = await deps.apiKeys.revoke(userId, keyId);
  if (!revoked) throw new HttpError(404, API_KEY_MESSAGES.notFound);
  context.log.info({ userId, apiKeyId: keyId }, 'api key revoked');
  return { success: true as const };
}
