import { randomBytes, randomUUID } from 'node:crypto';
import {
  MAX_DEAL_LOAN_DATA_BYTES,
  type RunOfferAnswer,
  type RunOfferQuery,
  SHARING_MESSAGES,
} from '@lsp/contracts';
import {
  type Logger,
  badRequest,
  forbidden,
  notFound,
  serviceUnavailable,
  tooManyRequests,
  type EventOutbox,
  declareRoute,
  type Clock,
} from '@lsp/service-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Connection } from 'mongoose';
import { createHash } from 'node:crypto';
import type { SharingConfig } from '../config';
import { AllowanceUnavailableError, type SharingAllowances } from '../data/allowances';
import type { SharedDeal } from '../data/collections';
import type { SharingRepositories } from '../data/repositories';
import { dealSharedEvent, dealViewedEvent, referralCreatedEvent } from '../events/published';
import { SIGNED_IN } from './shares';

export interface DealRouteDeps {
  config: Pick<SharingConfig, 'PUBLIC_URL'>;
  logger: Pick<Logger, 'warn' | 'error'>;
  mongo: Connection;
  allowances: SharingAllowances;
  repositories: Pick<SharingRepositories, 'deals' | 'referrals' | 'funnel'>;
  outbox: EventOutbox;
  clock: Clock;
  /** The search service's record of one offer of a run (what a deal share sends). */
  askSearch: (query: RunOfferQuery) => Promise<RunOfferAnswer>;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;

/** A lender or product id as an offer carries it; null when it is not one. */
const idIn = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null;

export function registerDealRoutes(app: FastifyInstance, deps: DealRouteDeps) {
  const { deals, referrals, funnel } = deps.repositories;

  /**
   * Deal shares and referrals spend from the same allowance as DIP shares, so nobody can spam through
   * the platform; while the allowance cannot be checked, nothing is sent (503).
   */
  async function spendInvitation(userId: string, reply: FastifyReply) {
    const verdict = await deps.allowances.spendInvitation(userId).catch((err: unknown) => {
      if (!(err instanceof AllowanceUnavailableError)) throw err;
      deps.logger.error({ err }, 'invitation allowance unavailable; nothing sent');
      throw serviceUnavailable(SHARING_MESSAGES.invitationsUnavailable);
    });
    if (!verdict.allowed) {
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      throw tooManyRequests(SHARING_MESSAGES.tooManyInvitations, {
        retryAfterSeconds: verdict.retryAfterSeconds,
      });
    }
  }

  declareRoute(
    app,
    'shareDeal',
    async (request, reply) => {
      const { caller, body: input } = request;
      if (input.referrerId !== caller.userId) throw forbidden(SHARING_MESSAGES.referrerMismatch);
      const posted = typeof input.loanData === 'string' ? input.loanData : JSON.stringify(input.loanData);
      if (Buffer.byteLength(posted) > MAX_DEAL_LOAN_DATA_BYTES)
        throw badRequest(`loanData must be at most ${MAX_DEAL_LOAN_DATA_BYTES} bytes`);
      let postedOffer: Record<string, unknown>;
      try {
        postedOffer = JSON.parse(posted) as Record<string, unknown>;
      } catch {
        throw badRequest('loanData must be a loan result (JSON)');
      }
      if (!postedOffer || typeof postedOffer !== 'object' || Array.isArray(postedOffer))
        throw badRequest('loanData must be a loan result (JSON)');
      // The deal is the server's own record of the run's offer: the posted offer only names it (by its
      // lender and product when the request does not), and none of its figures or words are kept.
      if (!input.searchRunId) throw badRequest(SHARING_MESSAGES.dealWithoutRun);
      const lenderId = input.lenderId ?? idIn(postedOffer.LenderId);
      const productId = input.productId ?? idIn(postedOffer.ProductId);
      if (!lenderId || !productId) throw badRequest(SHARING_MESSAGES.dealWithoutOffer);
      const answer = await deps.askSearch({
        loanType: input.loanType,
        searchRunId: input.searchRunId,
        lenderId,
        productId,
        userId: caller.userId,
      });
      if (answer.outcome !== 'offered')
        throw answer.outcome === 'run-of-other-user'
          ? forbidden(SHARING_MESSAGES.dealRunOfOtherUser)
          : notFound(
              answer.outcome === 'run-not-found'
                ? SHARING_MESSAGES.dealRunNotFound
                : SHARING_MESSAGES.dealOfferNotInRun,
            );
      const { offer } = answer;
      await spendInvitation(caller.userId, reply);
      const now = deps.clock.now();
      const channel = input.channel ?? 'email';
      const deal: SharedDeal = {
        _id: randomUUID(),
        // A link for WhatsApp, Facebook or LinkedIn names no recipient (the schema asks email for one).
        referralEmail: channel === 'email' ? (input.referralEmail ?? '').toLowerCase() : null,
        channel,
        referrerId: caller.userId,
        referrerName: caller.name,
        loanType: answer.loanType,
        loanData: JSON.stringify(offer),
        // 256 random bits: the token is the only key to the deal page.
        signupToken: randomBytes(32).toString('base64url'),
        note: input.note,
        viewed: false,
        viewedAt: null,
        linkedUserId: null,
        createdAt: now,
      };
      const lenderName = typeof offer.LenderName === 'string' ? offer.LenderName.slice(0, 2000) : null;
      const referralEmail = deal.referralEmail;
      await deps.mongo.transaction(async (session) => {
        await deals.insert(deal, session);
        // Only an email share sends an email (deal.shared); a link is handed to the person who made it.
        if (referralEmail === null) return;
        await deps.outbox.add(
          [
            dealSharedEvent({
              dealId: deal._id,
              referrerId: deal.referrerId,
              referrerName: deal.referrerName,
              referralEmail,
              loanType: deal.loanType,
              lenderName,
              note: deal.note,
              dealUrl: new URL(`/shared-deal/${deal.signupToken}`, deps.config.PUBLIC_URL).toString(),
              createdAt: now.toISOString(),
            }),
          ],
          session,
        );
      });
      reply.status(201);
      return { success: true, signupToken: deal.signupToken };
    },
    SIGNED_IN,
  );

  async function dealByToken(token: string) {
    const deal = TOKEN_PATTERN.test(token) ? await deals.findByToken(token) : null;
    if (!deal) throw notFound(SHARING_MESSAGES.dealNotFound);
    return deal;
  }

  declareRoute(app, 'getSharedDeal', async (request) => {
    const deal = await dealByToken(request.params.token);
    return {
      success: true,
      loan_data: deal.loanData,
      loan_type: deal.loanType,
      referrer_name: deal.referrerName,
      note: deal.note,
      viewed: deal.viewed,
      created_at: deal.createdAt.toISOString(),
    };
  });

  declareRoute(app, 'markSharedDealViewed', async (request) => {
    const deal = await dealByToken(request.params.token);
    const viewer = request.caller;
    const now = deps.clock.now();
    await deps.mongo.transaction(async (session) => {
      if (!(await deals.markViewed(deal._id, now, session))) return;
      await deps.outbox.add(
        [
          dealViewedEvent({
            dealId: deal._id,
            referrerId: deal.referrerId,
            viewerUserId: viewer?.userId ?? null,
            viewedAt: now.toISOString(),
          }),
        ],
        session,
      );
    });
    return { success: true, viewed: true };
  });

  declareRoute(
    app,
    'refer',
    async (request, reply) => {
      const { caller, body: input } = request;
      await spendInvitation(caller.userId, reply);
      const now = deps.clock.now();
      const referral = {
        _id: randomUUID(),
        referrerUserId: caller.userId,
        referrerName: input.referrerName,
        referralEmail: input.referralEmail.toLowerCase(),
        message: input.message,
        createdAt: now,
      };
      await deps.mongo.transaction(async (session) => {
        await referrals.insert(referral, session);
        await deps.outbox.add(
          [
            referralCreatedEvent({
              referralId: referral._id,
              referrerUserId: referral.referrerUserId,
              referrerName: referral.referrerName,
              referralEmail: referral.referralEmail,
              message: referral.message,
              inviteUrl: new URL('/register', deps.config.PUBLIC_URL).toString(),
              createdAt: now.toISOString(),
            }),
          ],
          session,
        );
      });
      reply.status(201);
      return { success: true, referralId: referral._id };
    },
    SIGNED_IN,
  );

  /**
   * Share-funnel telemetry answers 204 whatever happens: the page ignores failures and must never wait
   * on, or break because of, a measurement.
   */
  declareRoute(
    app,
    'recordShareFunnelEvent',
    async (request, reply) => {
      try {
        // Validated by the declared schema, but a refusal is attached rather than answered (below).
        if (request.validationError) return reply.code(204).send();
        const { body: input, caller } = request;
        const who = caller
          ? `u:${caller.userId}`
          : input.sessionId
            ? `s:${input.sessionId}`
            : `a:${request.clientAddress}`;
        if (!(await deps.allowances.telemetryAllowed(who))) return reply.code(204).send();
        const fingerprint = createHash('sha256')
          .update(
            JSON.stringify([who, input.event, input.dipId ?? '', input.shareId ?? '', input.context ?? '']),
          )
          .digest('hex');
        if (!(await deps.allowances.firstSighting(fingerprint))) return reply.code(204).send();
        await funnel.record({
          _id: randomUUID(),
          event: input.event,
          dipId: input.dipId ?? null,
          shareId: input.shareId ?? null,
          context: input.context ?? null,
          duration: input.duration ?? null,
          metadata: input.metadata && JSON.stringify(input.metadata).length <= 4000 ? input.metadata : null,
          clientTimestamp:
            input.timestamp === undefined || input.timestamp === null ? null : String(input.timestamp),
          sessionId: input.sessionId ?? null,
          correlationId: input.correlationId ?? null,
          userId: caller?.userId ?? null,
          createdAt: deps.clock.now(),
        });
      } catch (err) {
        deps.logger.warn({ err }, 'share-funnel event not recorded');
      }
      return reply.code(204).send();
    },
    { attachValidation: true },
  );
}
