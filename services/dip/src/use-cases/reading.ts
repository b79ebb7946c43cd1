import { DIP_MESSAGES, type DipState } from '@lsp/contracts';
import { type CallerIdentity, forbidden, notFound } from '@lsp/service-kit';
import type { DipRepository } from '../data/dips';
import { isDipId, isShareSlug } from '../domain/codes';
import { dipStateOf, listItem, onlineView, ownerView } from '../domain/views';
import { type DipReadAccessDeps, readableDip } from './access';
import type { AnswerOf } from './answers';

export interface DipReadingDeps extends DipReadAccessDeps {
  dips: Pick<DipRepository, 'findById' | 'findBySlug' | 'listForUser'>;
  publicUrl: string;
}

/** The caller's DIPs for the dashboard, newest first; only the caller's own list may be asked for. */
export async function listUserDips(
  deps: Pick<DipReadingDeps, 'dips' | 'clock' | 'publicUrl'>,
  caller: CallerIdentity,
  userId: string,
): Promise<AnswerOf<'listUserDips'>> {
  if (userId !== caller.userId) throw forbidden(DIP_MESSAGES.searchAccessDenied);
  const now = deps.clock.now();
  const list = await deps.dips.listForUser(caller.userId);
  return { success: true, dips: list.map((d) => listItem(d, now, deps.publicUrl)) };
}

/**
 * The owner's view of a DIP, by its id. Its owner still opens an expired DIP (status 'expired': the
 * Expired badge, Download PDF disabled); no one else opens it by id.
 */
async function ownerDipView(
  deps: Pick<DipReadingDeps, 'dips' | 'clock' | 'publicUrl'>,
  caller: CallerIdentity,
  dipId: string,
): Promise<AnswerOf<'getDip'>> {
  const dip = await deps.dips.findById(dipId);
  if (!dip) throw notFound(DIP_MESSAGES.notFound);
  if (dip.userId !== caller.userId) throw forbidden(DIP_MESSAGES.accessDenied);
  return {
    success: true,
    dip: ownerView(dip, deps.clock.now(), deps.publicUrl),
    shareInfo: { shareId: null },
  };
}

/** The online DIP page, by its share slug: for its owner and those it is shared with, while it is valid. */
async function onlineDipView(
  deps: DipReadingDeps,
  caller: CallerIdentity,
  shareSlug: string,
): Promise<AnswerOf<'getDip'>> {
  if (!isShareSlug(shareSlug)) throw notFound(DIP_MESSAGES.notFound);
  const { dip, asOwner } = await readableDip(deps, await deps.dips.findBySlug(shareSlug), caller, 'view');
  return { success: true, ...onlineView(dip, deps.clock.now(), asOwner) };
}

/**
 * One path, two readers: a DIP id is the owner's view, a share slug the online DIP page.
 * `onlinePage` says which was read.
 */
export async function readDip(
  deps: DipReadingDeps,
  caller: CallerIdentity,
  reference: string,
): Promise<{ answer: AnswerOf<'getDip'>; onlinePage: boolean }> {
  if (isDipId(reference)) return { answer: await ownerDipView(deps, caller, reference), onlinePage: false };
  return { answer: await onlineDipView(deps, caller, reference), onlinePage: true };
}

export interface DipStateDeps {
  dips: Pick<DipRepository, 'findById'>;
  publicUrl: string;
}

/** A DIP's link as it is now, for sharing (null: no such DIP). */
export async function currentDipState(deps: DipStateDeps, dipId: string): Promise<DipState | null> {
  const dip = isDipId(dipId) ? await deps.dips.findById(dipId) : null;
  return dip ? dipStateOf(dip, deps.publicUrl) : null;
}
