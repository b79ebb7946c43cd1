import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type DealShareDeps, getSharedDeal, markSharedDealViewed, shareDeal } from '../use-cases/deal-shares';
import { type ReferralDeps, refer } from '../use-cases/referrals';
import { type ShareFunnelDeps, recordShareFunnelEvent } from '../use-cases/share-funnel';
import { withRetryAfter } from './retry-after';
import { SIGNED_IN } from './shares';

export type DealRouteDeps = DealShareDeps & ReferralDeps & ShareFunnelDeps;

/** Deal shares, referrals and the share-funnel telemetry. */
export function registerDealRoutes(app: FastifyInstance, deps: DealRouteDeps) {
  declareRoute(
    app,
    'shareDeal',
    async (request, reply) => {
      const shared = await shareDeal(deps, request.caller, request.body).catch((err: unknown) =>
        withRetryAfter(reply, err),
      );
      reply.status(201);
      return shared;
    },
    SIGNED_IN,
  );

  declareRoute(app, 'getSharedDeal', async (request) => getSharedDeal(deps, request.params.token));

  declareRoute(app, 'markSharedDealViewed', async (request) =>
    markSharedDealViewed(deps, request.params.token, request.caller),
  );

  declareRoute(
    app,
    'refer',
    async (request, reply) => {
      const referred = await refer(deps, request.caller, request.body).catch((err: unknown) =>
        withRetryAfter(reply, err),
      );
      reply.status(201);
      return referred;
    },
    SIGNED_IN,
  );

  /**
   * Share-funnel telemetry answers 204 whatever happens: the page ignores failures and must never wait
   * on, or break because of, a measurement. The body is validated by the declared schema, but a
   * refusal is attached rather than answered, and the event dropped.
   */
  declareRoute(
    app,
    'recordShareFunnelEvent',
    async (request, reply) => {
      if (!request.validationError)
        await recordShareFunnelEvent(deps, request.body, {
          callerUserId: request.caller?.userId ?? null,
          clientAddress: request.clientAddress,
        });
      return reply.code(204).send();
    },
    { attachValidation: true },
  );
}
