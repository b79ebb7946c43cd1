import { type DipState, SHARING_MESSAGES } from '@lsp/contracts';
import { type EventOutbox, forbidden, gone, notFound } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { DipProjection } from '../data/collections';
import type { SharingRepositories } from '../data/repositories';
import { isExpired } from '../domain/expiry';
import { catchUpWithOwner } from '../events/consumed';

export interface CurrentDipDeps {
  mongo: Connection;
  repositories: Pick<SharingRepositories, 'dips' | 'links' | 'recipients'>;
  outbox: EventOutbox;
  /**
   * Asks the dip service for a DIP as it is now (null: no such DIP). Every decision about a DIP's link
   * is made on the owner's answer, never on the projection alone, which may not have heard yet of a
   * DIP created or a link regenerated a moment ago
   * (docs/decisions/0083-read-your-own-writes-across-services.md).
   */
  askDip: (dipId: string) => Promise<DipState | null>;
}

/** The DIP as its owner holds it now, the projection brought up to it; null when there is none. */
export async function currentDip(
  deps: CurrentDipDeps,
  dipId: string,
  now: Date,
): Promise<DipProjection | null> {
  const state = await deps.askDip(dipId);
  return state ? catchUpWithOwner(deps.mongo, deps.repositories, deps.outbox, state, now) : null;
}

/** The DIP if the caller owns it (its expiry aside: an owner may always see and revoke its shares). */
export async function ownedDip(
  deps: CurrentDipDeps,
  dipId: string,
  userId: string,
  now: Date,
): Promise<DipProjection> {
  const dip = await currentDip(deps, dipId, now);
  if (!dip) throw notFound(SHARING_MESSAGES.notFound);
  if (dip.ownerUserId !== userId) throw forbidden(SHARING_MESSAGES.accessDenied);
  return dip;
}

/** The DIP if the caller owns it and it can still be shared: its link active, the DIP not expired. */
export async function shareableDip(
  deps: CurrentDipDeps,
  dipId: string,
  userId: string,
  now: Date,
): Promise<DipProjection> {
  const dip = await ownedDip(deps, dipId, userId, now);
  if (dip.status !== 'active' || !dip.shareSlug) throw notFound(SHARING_MESSAGES.notFound);
  if (isExpired(dip.expiresAt, now)) throw gone(SHARING_MESSAGES.expiredCannotShare);
  return dip;
}
