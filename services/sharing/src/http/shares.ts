import { SHARING_MESSAGES } from '@lsp/contracts';
import { type DeclaredRouteOptions, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type DipInvitationDeps, inviteRecipients } from '../use-cases/dip-invitations';
import { listDipShares, revokeShare, shareOpenLink } from '../use-cases/dip-shares';
import {
  type SharedWithMeDeps,
  countUnreadShares,
  getSharedDip,
  listSharedWithMe,
  markShareViewed,
  openSharedDip,
} from '../use-cases/shared-with-me';
import { withRetryAfter } from './retry-after';

export type ShareRouteDeps = DipInvitationDeps & SharedWithMeDeps;

/** Sharing's routes for signed-in callers refuse others in sharing's words. */
export const SIGNED_IN: DeclaredRouteOptions = { signInMessage: SHARING_MESSAGES.authRequired };

/** DIP shares: the owner's (share, list, revoke) and the recipient's (open a link, Shared with me). */
export function registerShareRoutes(app: FastifyInstance, deps: ShareRouteDeps) {
  declareRoute(
    app,
    'shareDip',
    async (request, reply) => {
      const { params, body, caller } = request;
      if (body.inviteType === 'open') return shareOpenLink(deps, params.dipId, caller, body.expiresAt);
      const invited = await inviteRecipients(deps, params.dipId, caller, body).catch((err: unknown) =>
        withRetryAfter(reply, err),
      );
      if (invited.status === 503) return reply.code(503).send(invited.body);
      reply.status(201);
      return invited.body;
    },
    SIGNED_IN,
  );

  declareRoute(
    app,
    'listDipShares',
    async (request) => listDipShares(deps, request.params.dipId, request.caller.userId),
    SIGNED_IN,
  );

  declareRoute(
    app,
    'revokeShare',
    async (request) => revokeShare(deps, request.params, request.caller.userId),
    SIGNED_IN,
  );

  declareRoute(app, 'openSharedDip', async (request) =>
    openSharedDip(deps, request.params.slug, request.query, request.caller),
  );

  declareRoute(app, 'listSharedWithMe', async (request) => listSharedWithMe(deps, request.caller), SIGNED_IN);

  declareRoute(
    app,
    'countUnreadShares',
    async (request) => countUnreadShares(deps, request.caller),
    SIGNED_IN,
  );

  declareRoute(
    app,
    'markShareViewed',
    async (request) => markShareViewed(deps, request.params.shareId, request.caller),
    SIGNED_IN,
  );

  declareRoute(
    app,
    'getSharedDip',
    async (request) => getSharedDip(deps, request.params.id, request.caller),
    SIGNED_IN,
  );
}
