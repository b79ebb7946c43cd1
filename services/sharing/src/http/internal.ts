import { SHARING_INTERNAL_PATHS, type AccessAnswer, accessQuerySchema } from '@lsp/contracts';
import { badRequest, registerInternalRead } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type AccessDeps, accessGrants } from '../use-cases/access';

/**
 * What other services ask sharing directly (docs/decisions/0083-read-your-own-writes-across-services.md):
 * dip, whether a person may open a DIP, when its own grants (kept from share.created and share.viewed)
 * have not yet heard of a share made or an open link opened a moment ago.
 */
export function registerInternalReads(app: FastifyInstance, deps: AccessDeps & { internalSecret: string }) {
  registerInternalRead<never, unknown>(
    app,
    deps.internalSecret,
    { method: 'POST', path: SHARING_INTERNAL_PATHS.access },
    async (request): Promise<AccessAnswer> => {
      const query = accessQuerySchema.safeParse(request.body);
      if (!query.success) throw badRequest('dipId, shareSlug, email and userId are required');
      return accessGrants(deps, query.data);
    },
  );
}
