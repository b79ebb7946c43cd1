import { randomUUID } from 'node:crypto';
import { DIP_DEFAULT_VALID_HOURS, DIP_MESSAGES, type DipSnapshot, DIP_EVENTS } from '@lsp/contracts';
import { type CallerIdentity, type Clock, isDuplicateKey, notFound } from '@lsp/service-kit';
import type { DipRepository } from '../data/dips';
import { newQuoteCode, newShareSlug } from '../domain/codes';
import { expiryOfNewDip } from '../domain/expiry';
import { buildSnapshot } from '../domain/snapshot';
import { type Dip, shareUrlOf } from '../domain/views';
import { type SavedSearchDeps, callersSavedSearch } from './access';
import type { AnswerOf } from './answers';

export interface DipCreationDeps extends SavedSearchDeps {
  dips: Pick<DipRepository, 'countForUser' | 'insert'>;
  clock: Clock;
  publicUrl: string;
}

export interface DipCreationRequest {
  caller: CallerIdentity;
  searchId: string;
  /** Which offer of the saved search, by its place in the search's offers. */
  loanIndex: number;
  /** How long the DIP is valid; DIP_DEFAULT_VALID_HOURS when the request does not say. */
  validHours: number | undefined;
  requestId: string;
}

/** Tries before a DIP creation gives up on finding an unused quote code (each try has ~1e-9 odds of a clash). */
const CREATE_ATTEMPTS = 5;

/** The first version of a DIP, its link active, with the quote code and share slug drawn for it. */
function newDip(
  request: DipCreationRequest,
  fields: { snapshot: DipSnapshot; validityHours: number; pricedUnder: string | null; shareSlug: string },
  now: Date,
): Dip {
  return {
    id: randomUUID(),
    userId: request.caller.userId,
    searchId: request.searchId,
    loanIndex: request.loanIndex,
    quoteCode: newQuoteCode(),
    shareSlug: fields.shareSlug,
    linkStatus: 'active',
    validityHours: fields.validityHours,
    snapshot: fields.snapshot,
    expiresAt: expiryOfNewDip(now, fields.validityHours),
    createdAt: now,
    version: 1,
    firstSharedAt: null,
    linkRevokedAt: null,
    productChange: null,
    pricedUnder: fields.pricedUnder,
    productCheckedAt: null,
  };
}

/**
 * A DIP from one offer of the caller's own saved search: its terms are frozen in a snapshot, and it is
 * stored with its dip.created. A quote code or slug another DIP took a moment ago is drawn again, up
 * to CREATE_ATTEMPTS times.
 */
export async function createDip(
  deps: DipCreationDeps,
  request: DipCreationRequest,
): Promise<AnswerOf<'createDip'>> {
  const { caller, searchId, loanIndex } = request;
  const search = await callersSavedSearch(deps, searchId, caller);
  const offer = search.offers[loanIndex];
  if (!offer) throw notFound(DIP_MESSAGES.offerNotFound);
  const validityHours = request.validHours ?? DIP_DEFAULT_VALID_HOURS;
  const firstDip = (await deps.dips.countForUser(caller.userId)) === 0;
  const snapshot = buildSnapshot(search.loanType, offer, search.searchData, caller, firstDip);
  const pricedUnder = search.panelVersion ?? null;
  for (let attempt = 1; ; attempt++) {
    const shareSlug = newShareSlug();
    const shareUrl = shareUrlOf(deps.publicUrl, shareSlug);
    const dip = newDip(request, { snapshot, validityHours, pricedUnder, shareSlug }, deps.clock.now());
    try {
      await deps.dips.insert(dip, (d) => [
        DIP_EVENTS.created.envelope(
          {
            dipId: d.id,
            ownerUserId: d.userId,
            version: d.version,
            ownerName: caller.name,
            ownerEmail: caller.email,
            searchId,
            loanIndex,
            quoteCode: d.quoteCode,
            shareSlug,
            shareUrl,
            validityHours,
            expiresAt: d.expiresAt.toISOString(),
            createdAt: d.createdAt.toISOString(),
            snapshot,
          },
          { correlationId: request.requestId },
        ),
      ]);
    } catch (err) {
      // Another DIP took this quote code (or slug) a moment ago: draw new ones.
      if (isDuplicateKey(err) && attempt < CREATE_ATTEMPTS) continue;
      throw err;
    }
    return {
      ok: true,
      dipId: dip.id,
      quoteCode: dip.quoteCode,
      shareUrl,
      expiresAt: dip.expiresAt.toISOString(),
      validityHours,
    };
  }
}
