import { randomBytes, randomUUID } from 'node:crypto';
import {
  type DealShareBody,
  MAX_DEAL_LOAN_DATA_BYTES,
  type RunOfferAnswer,
  type RunOfferQuery,
  SHARING_MESSAGES,
  SHARING_EVENTS,
} from '@lsp/contracts';
import {
  type CallerIdentity,
  type Clock,
  type EventOutbox,
  badRequest,
  forbidden,
  notFound,
} from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { SharingConfig } from '../config';
import type { SharedDeal } from '../data/collections';
import type { SharingRepositories } from '../data/repositories';
import { type InvitationAllowanceDeps, spendInvitation } from './invitation-allowance';

export interface DealShareDeps extends InvitationAllowanceDeps {
  config: Pick<SharingConfig, 'PUBLIC_URL'>;
  mongo: Connection;
  repositories: Pick<SharingRepositories, 'deals'>;
  outbox: EventOutbox;
  clock: Clock;
  /** The search service's record of one offer of a run (what a deal share sends). */
  askSearch: (query: RunOfferQuery) => Promise<RunOfferAnswer>;
}

/** A deal page's token as one is made (256 random bits, base64url); anything else names no deal. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;

/** A lender or product id as an offer carries it; null when it is not one. */
const idIn = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null;

/** The offer the browser posted, as a JSON object (text or already parsed), within its size. */
function postedOfferOf(loanData: DealShareBody['loanData']): Record<string, unknown> {
  const posted = typeof loanData === 'string' ? loanData : JSON.stringify(loanData);
  if (Buffer.byteLength(posted) > MAX_DEAL_LOAN_DATA_BYTES)
    throw badRequest(`loanData must be at most ${MAX_DEAL_LOAN_DATA_BYTES} bytes`);
  let offer: Record<string, unknown>;
  try {
    offer = JSON.parse(posted) as Record<string, unknown>;
  } catch {
    throw badRequest('loanData must be a loan result (JSON)');
  }
  if (!offer || typeof offer !== 'object' || Array.isArray(offer))
    throw badRequest('loanData must be a loan result (JSON)');
  return offer;
}

/**
 * The search service's record of the offer a deal share names: by the run, and by its lender and
 * product (from the posted offer when the request does not name them). Another user's run is a 403;
 * an unknown run, or an offer not in it, a 404.
 */
async function offerOfRun(deps: DealShareDeps, input: DealShareBody, userId: string) {
  const postedOffer = postedOfferOf(input.loanData);
  if (!input.searchRunId) throw badRequest(SHARING_MESSAGES.dealWithoutRun);
  const lenderId = input.lenderId ?? idIn(postedOffer.LenderId);
  const productId = input.productId ?? idIn(postedOffer.ProductId);
  if (!lenderId || !productId) throw badRequest(SHARING_MESSAGES.dealWithoutOffer);
  const answer = await deps.askSearch({
    loanType: input.loanType,
    searchRunId: input.searchRunId,
    lenderId,
    productId,
    userId,
  });
  if (answer.outcome === 'offered') return answer;
  if (answer.outcome === 'run-of-other-user') throw forbidden(SHARING_MESSAGES.dealRunOfOtherUser);
  throw notFound(
    answer.outcome === 'run-not-found'
      ? SHARING_MESSAGES.dealRunNotFound
      : SHARING_MESSAGES.dealOfferNotInRun,
  );
}

/**
 * Shares one offer of the caller's search run: by email (a deal.shared sends it) or as a link for
 * WhatsApp, Facebook or LinkedIn. The deal is the server's own record of the run's offer: the posted
 * offer only names it, and none of its figures or words are kept. Nothing is stored, sent or spent
 * from the invitation allowance on a refusal.
 */
export async function shareDeal(deps: DealShareDeps, caller: CallerIdentity, input: DealShareBody) {
  if (input.referrerId !== caller.userId) throw forbidden(SHARING_MESSAGES.referrerMismatch);
  const answer = await offerOfRun(deps, input, caller.userId);
  const { offer } = answer;
  await spendInvitation(deps, caller.userId);
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
    await deps.repositories.deals.insert(deal, session);
    // Only an email share sends an email (deal.shared); a link is handed to the person who made it.
    if (referralEmail === null) return;
    await deps.outbox.add(
      [
        SHARING_EVENTS.dealShared.envelope({
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
  return { success: true as const, signupToken: deal.signupToken };
}

async function dealByToken(deps: DealShareDeps, token: string): Promise<SharedDeal> {
  const deal = TOKEN_PATTERN.test(token) ? await deps.repositories.deals.findByToken(token) : null;
  if (!deal) throw notFound(SHARING_MESSAGES.dealNotFound);
  return deal;
}

/** The deal page: the shared offer and who shared it, to anyone holding the token. */
export async function getSharedDeal(deps: DealShareDeps, token: string) {
  const deal = await dealByToken(deps, token);
  return {
    success: true as const,
    loan_data: deal.loanData,
    loan_type: deal.loanType,
    referrer_name: deal.referrerName,
    note: deal.note,
    viewed: deal.viewed,
    created_at: deal.createdAt.toISOString(),
  };
}

/** The deal page was opened: the first opening is recorded with its deal.viewed. */
export async function markSharedDealViewed(
  deps: DealShareDeps,
  token: string,
  viewer: CallerIdentity | null,
) {
  const deal = await dealByToken(deps, token);
  const now = deps.clock.now();
  await deps.mongo.transaction(async (session) => {
    if (!(await deps.repositories.deals.markViewed(deal._id, now, session))) return;
    await deps.outbox.add(
      [
        SHARING_EVENTS.dealViewed.envelope({
          dealId: deal._id,
          referrerId: deal.referrerId,
          viewerUserId: viewer?.userId ?? null,
          viewedAt: now.toISOString(),
        }),
      ],
      session,
    );
  });
  return { success: true as const, viewed: true as const };
}
