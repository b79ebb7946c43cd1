import { API_KEY_ID_HEADER, API_KEY_MESSAGES } from '@lsp/contracts';
import { HttpError, declareRoute, forbidden } from '@lsp/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyStore } from '../data/api-keys';

/** A call the gateway authenticated with an API key: it may not make, list or revoke keys. */
function refuseApiKeyCaller(request: FastifyRequest) {
  if (request.caller && request.headers[API_KEY_ID_HEADER] !== undefined) {
    throw forbidden(API_KEY_MESSAGES.sessionOnly);
  }
}

/** The signed-in user's API keys: make (shown once), list (never the key), revoke. */
export function registerApiKeyRoutes(app: FastifyInstance, deps: { apiKeys: ApiKeyStore }) {
  const { apiKeys } = deps;

  declareRoute(app, 'createApiKey', async (request, reply) => {
    refuseApiKeyCaller(request);
    const { caller, body } = request;
    const created = await apiKeys.create({
      userId: caller.userId,
      email: caller.email,
      ownerName: caller.name,
      verified: caller.verified,
      keyName: body.name,
      scopes: body.scopes,
      expiresInDays: body.expiresInDays,
    });
    if (!created) throw new HttpError(409, API_KEY_MESSAGES.tooMany);
    request.log.info({ userId: caller.userId, apiKeyId: created.id, scopes: created.scopes }, 'api key made');
    reply.status(201);
    return created;
  });

  declareRoute(app, 'listApiKeys', async (request) => {
    refuseApiKeyCaller(request);
    return { apiKeys: await apiKeys.list(request.caller.userId) };
  });

  declareRoute(app, 'revokeApiKey', async (request) => {
    refuseApiKeyCaller(request);
    const revoked = await apiKeys.revoke(request.caller.userId, request.params.keyId);
    if (!revoked) throw new HttpError(404, API_KEY_MESSAGES.notFound);
    request.log.info({ userId: request.caller.userId, apiKeyId: request.params.keyId }, 'api key revoked');
    return { success: true };
  });
}
