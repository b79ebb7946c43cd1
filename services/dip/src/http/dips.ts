import { DIP_MESSAGES } from '@lsp/contracts';
import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type DipCreationDeps, createDip } from '../use-cases/creation';
import { type DipExpiryDeps, changeDipExpiry } from '../use-cases/expiry';
import { type DipReadingDeps, listUserDips, readDip } from '../use-cases/reading';
import { type ShareLinkDeps, regenerateDipLink, revokeDipLink } from '../use-cases/share-link';

export type DipRouteDeps = DipCreationDeps & DipReadingDeps & ShareLinkDeps & DipExpiryDeps;

/** A DIP's creation, its owner's reads and link actions, and the online DIP page. */
export function registerDipRoutes(app: FastifyInstance, deps: DipRouteDeps) {
  declareRoute(
    app,
    'createDip',
    async (request, reply) => {
      const { searchId, loanIndex } = request.params;
      const created = await createDip(deps, {
        caller: request.caller,
        searchId,
        loanIndex,
        validHours: request.body.validHours,
        requestId: request.id,
      });
      request.log.info({ dipId: created.dipId, quoteCode: created.quoteCode }, 'DIP created');
      reply.status(201);
      return created;
    },
    { signInMessage: DIP_MESSAGES.authRequired },
  );

  declareRoute(app, 'listUserDips', async (request) =>
    listUserDips(deps, request.caller, request.params.userId),
  );

  declareRoute(app, 'getDip', async (request, reply) => {
    const { answer, onlinePage } = await readDip(deps, request.caller, request.params.reference);
    // The online page may be cached for 60 s; privately, because it is one person's loan terms.
    if (onlinePage) reply.header('cache-control', 'private, max-age=60');
    return answer;
  });

  declareRoute(app, 'regenerateDipLink', async (request) =>
    regenerateDipLink(deps, { caller: request.caller, dipId: request.params.dipId, requestId: request.id }),
  );

  declareRoute(app, 'setDipExpiry', async (request) =>
    changeDipExpiry(deps, {
      caller: request.caller,
      dipId: request.params.dipId,
      expiresAt: request.body.expiresAt,
      requestId: request.id,
    }),
  );

  declareRoute(app, 'revokeDip', async (request) =>
    revokeDipLink(deps, { caller: request.caller, dipId: request.params.dipId, requestId: request.id }),
  );
}
