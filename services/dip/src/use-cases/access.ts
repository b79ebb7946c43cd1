import { DIP_MESSAGES } from '@lsp/contracts';
import { type CallerIdentity, type Clock, conflict, forbidden, gone, notFound } from '@lsp/service-kit';
import type { DipRepository } from '../data/dips';
import {
  type AccessProjection,
  type ProjectedSearch,
  type SavedSearchProjection,
  type SavedSearchSource,
  type SharedAccessSource,
  savedSearchFor,
} from '../data/projections';
import { isDipId } from '../domain/codes';
import { type Dip, isExpired } from '../domain/views';

export interface DipReadAccessDeps {
  access: Pick<AccessProjection, 'grantsFor'>;
  /** The sharing service: the shares through which someone may open a DIP now (none if it cannot be asked). */
  askSharing: SharedAccessSource;
  clock: Clock;
}

/**
 * The DIP a caller may read: it exists (404), has not expired (410), and is the caller's own or
 * shared with them through a link that still holds (403). `needs` names the permission asked for.
 */
export async function readableDip(
  deps: DipReadAccessDeps,
  dip: Dip | null,
  caller: CallerIdentity,
  needs: 'view' | 'downloadPdf',
): Promise<{ dip: Dip; asOwner: boolean }> {
  if (!dip) throw notFound(DIP_MESSAGES.notFound);
  const now = deps.clock.now();
  if (isExpired(dip, now)) throw gone(DIP_MESSAGES.expired);
  if (dip.userId === caller.userId) return { dip, asOwner: true };
  const grants = await deps.access.grantsFor(dip, caller, now);
  if (grants.some((g) => g.permissions[needs])) return { dip, asOwner: false };
  // No grant here yet may mean the share (or this person's opening of the open link) happened a moment
  // ago and its event is on its way: sharing, which owns shares, is asked before refusing.
  if (
    dip.shareSlug &&
    (await deps.askSharing(dip.id, dip.shareSlug, caller, dip.linkRevokedAt)).some(
      (g) => g.permissions[needs],
    )
  )
    return { dip, asOwner: false };
  throw forbidden(DIP_MESSAGES.accessDenied);
}

export interface OwnerActionDeps {
  dips: Pick<DipRepository, 'findById'>;
  clock: Clock;
}

/** An owner's change to one of their DIPs, as the route names it. */
export interface OwnerAction {
  caller: CallerIdentity;
  dipId: string;
  /** Carried by the change's event as its correlation id. */
  requestId: string;
}

/** The caller's own DIP, still valid, for an owner's action: 404, 403 or 410 otherwise. */
export async function ownedLiveDip(
  deps: OwnerActionDeps,
  dipId: string,
  caller: CallerIdentity,
): Promise<Dip> {
  const dip = isDipId(dipId) ? await deps.dips.findById(dipId) : null;
  if (!dip) throw notFound(DIP_MESSAGES.notFound);
  if (dip.userId !== caller.userId) throw forbidden(DIP_MESSAGES.accessDenied);
  if (isExpired(dip, deps.clock.now())) throw gone(DIP_MESSAGES.expired);
  return dip;
}

/** An owner's change that lost to another made at the same time (the DIP's version moved on). */
export const changedConcurrently = () => conflict('The DIP changed at the same time; please try again.');

export interface SavedSearchDeps {
  savedSearches: SavedSearchProjection;
  /** The search service, for a search saved so recently that search.saved has not arrived. */
  askSearch: SavedSearchSource;
}

/**
 * The caller's own saved search, which a DIP or an application is made from: an unknown one is 404,
 * someone else's 403 (what is made from it would reach the lender as theirs).
 */
export async function callersSavedSearch(
  deps: SavedSearchDeps,
  searchId: string,
  caller: CallerIdentity,
): Promise<ProjectedSearch> {
  const search = await savedSearchFor(deps.savedSearches, deps.askSearch, searchId);
  if (!search) throw notFound(DIP_MESSAGES.searchNotFound);
  if (search.userId !== caller.userId) throw forbidden(DIP_MESSAGES.searchAccessDenied);
  return search;
}
