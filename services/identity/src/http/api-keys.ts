import { API_KEY_ID_HEADER } from '@lsp/contracts';
import { type CallerIdentity, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiKeyDeps, createApiKey, listApiKeys, revokeApiKey } from '../use-cases/api-keys';
import { contextOf } from './request-context';

/** The caller, and whether the gateway authenticated the call with an API key (it names the key). */
const keyHolderOf = (request: { caller: CallerIdentity; headers: FastifyRequest['headers'] }) => ({
  caller: request.caller,
  viaApiKey: request.headers[API_KEY_ID_HEADER] !== undefined,
});

/** The signed-in user's API keys: make (shown once), list (never the key), revoke. */
export function registerApiKeyRoutes(app: FastifyInstance, deps: ApiKeyDeps) {
  declareRoute(app, 'createApiKey', async (request, reply) => {
    const created = await createApiKey(deps, keyHolderOf(request), request.body, contextOf(request));
    reply.status(201);
    return created;
  });

  declareRoute(app, 'listApiKeys', async (request) => listApiKeys(deps, keyHolderOf(request)));

  declareRoute(app, 'revokeApiKey', async (request) =>
    revokeApiKey(deps, keyHolderOf(request), request.params.keyId, contextOf(request)),
  );
}
